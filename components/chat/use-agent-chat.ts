'use client'

import * as React from 'react'
import type { ToolCallRecord } from '@/lib/domain/agent-tools'
import { ChatError, isAbortError, streamAgentQuery, type AgentQueryInput, type AnswerSource } from './agent-stream'

export interface ChatMessage {
  id: string
  role: 'user' | 'assistant'
  text: string
  sources?: AnswerSource[]
  /** streaming: pieces are arriving; stopped: the user stopped it; error: see `error`. */
  status: 'streaming' | 'done' | 'stopped' | 'error'
  error?: string
  /** The stored message's id (an answer's, from the server), once known. */
  messageId?: string
  /** The agent's tool calls (issue 25), when the caller is its organization. */
  toolCalls?: ToolCallRecord[]
  /** An operator's reply (issue 23): who wrote it. */
  operatorName?: string
}

/** A signed visitor identity (issue 14), passed with every question. */
export interface VisitorIdentity {
  visitorId: string
  signature: string
  expires: number
}

export interface ChatOverrides {
  modelName?: string
  temperature?: number
}

let nextId = 0
const newId = () => `m${Date.now().toString(36)}${(nextId++).toString(36)}`

interface AgentChatOptions {
  agentId: string
  visitorId?: string
  onVisitorId?: (id: string) => void
  credentials?: RequestCredentials
  identity?: VisitorIdentity
  /** Told the conversation's id when an answer starts or continues one, and undefined on reset. */
  onConversationId?: (id: string | undefined) => void
}

/** The messages shown, and `patch` to change one of them (by a change, or a function of the message). */
function useMessages() {
  const [messages, setMessages] = React.useState<ChatMessage[]>([])
  const patch = React.useCallback((id: string, change: Partial<ChatMessage> | ((m: ChatMessage) => Partial<ChatMessage>)) => {
    setMessages(list => list.map(m => (m.id === id ? { ...m, ...(typeof change === 'function' ? change(m) : change) } : m)))
  }, [])
  return { messages, setMessages, patch }
}

/** What a question sends: its text, the conversation it continues, the visitor (signed when known) and overrides. */
function queryInput(text: string, conversationId: string | undefined, visitorId: string | undefined, identity: VisitorIdentity | undefined, overrides: ChatOverrides): AgentQueryInput {
  const signed = identity ? { visitorId: identity.visitorId, visitorSignature: identity.signature, visitorExpires: identity.expires } : {}
  return { query: text, conversationId, visitorId, ...signed, ...overrides }
}

/** How an answer that did not finish ends: stopped by the user, or failed with the reason shown. */
function unfinished(error: unknown, signal: AbortSignal): Partial<ChatMessage> {
  if (isAbortError(error) || signal.aborted) return { status: 'stopped' }
  return { status: 'error', error: error instanceof ChatError ? error.message : 'Something went wrong while answering.' }
}

/** "Ask again": the question before this answer is sent once more (a new answer follows; the old one stays). */
function useRetry(messages: ChatMessage[], send: (query: string) => Promise<void>) {
  const latest = React.useRef(messages)
  latest.current = messages
  return React.useCallback(
    (answerId: string) => {
      const list = latest.current
      const at = list.findIndex(m => m.id === answerId)
      const question = list.slice(0, at).reverse().find(m => m.role === 'user')
      if (question) void send(question.text)
    },
    [send],
  )
}

/**
 * One conversation with an agent: the messages shown, and send / stop / reset. The next question continues the
 * conversation (its id comes with each answer); `reset` starts a new one. The visitor id is kept by the caller.
 */
export function useAgentChat({ agentId, visitorId, onVisitorId, credentials, identity, onConversationId }: AgentChatOptions) {
  const { messages, setMessages, patch } = useMessages()
  const [conversationId, setConversationId] = React.useState<string | undefined>()
  const [busy, setBusy] = React.useState(false)
  const controller = React.useRef<AbortController | null>(null)

  const send = React.useCallback(
    async (query: string, overrides: ChatOverrides = {}) => {
      const text = query.trim()
      if (!text || controller.current) return
      const abort = new AbortController()
      controller.current = abort
      const answerId = newId()
      setMessages(list => [...list, { id: newId(), role: 'user', text, status: 'done' }, { id: answerId, role: 'assistant', text: '', status: 'streaming' }])
      setBusy(true)
      try {
        const answer = await streamAgentQuery(agentId, queryInput(text, conversationId, visitorId, identity, overrides), {
          signal: abort.signal,
          credentials,
          onAnswer: piece => patch(answerId, m => ({ text: m.text + piece })),
        })
        patch(answerId, { text: answer.answer, sources: answer.sources ?? [], status: 'done', messageId: answer.messageId, toolCalls: answer.toolCalls })
        setConversationId(answer.conversationId)
        if (answer.conversationId !== conversationId) onConversationId?.(answer.conversationId)
        if (answer.visitorId && answer.visitorId !== visitorId) onVisitorId?.(answer.visitorId)
      } catch (error) {
        patch(answerId, unfinished(error, abort.signal))
      } finally {
        if (controller.current === abort) controller.current = null
        setBusy(false)
      }
    },
    [agentId, conversationId, visitorId, onVisitorId, credentials, identity, onConversationId, patch, setMessages],
  )

  const stop = React.useCallback(() => controller.current?.abort(), [])
  const retry = useRetry(messages, send)

  const reset = React.useCallback(() => {
    controller.current?.abort()
    controller.current = null
    setMessages([])
    setConversationId(undefined)
    setBusy(false)
    onConversationId?.(undefined)
  }, [onConversationId, setMessages])

  /** Shows a conversation read back from the server (a reload), to be continued by the next question. */
  const restore = React.useCallback(
    (id: string | undefined, list: ChatMessage[]) => {
      if (controller.current) return
      setConversationId(id)
      setMessages(list)
    },
    [setMessages],
  )

  // leaving the page ends a stream still running
  React.useEffect(() => () => controller.current?.abort(), [])

  return { messages, conversationId, busy, send, stop, reset, restore, retry }
}
