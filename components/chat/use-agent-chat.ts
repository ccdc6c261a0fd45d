'use client'

import * as React from 'react'
import { ChatError, isAbortError, streamAgentQuery, type AgentQueryInput, type AnswerSource } from './agent-stream'

export interface ChatMessage {
  id: string
  role: 'user' | 'assistant'
  text: string
  sources?: AnswerSource[]
  /** streaming: pieces are arriving; stopped: the user stopped it; error: see `error`. */
  status: 'streaming' | 'done' | 'stopped' | 'error'
  error?: string
}

export interface ChatOverrides {
  modelName?: string
  temperature?: number
}

let nextId = 0
const newId = () => `m${Date.now().toString(36)}${(nextId++).toString(36)}`

/**
 * One conversation with an agent: the messages shown, and send / stop / reset. The next question continues the
 * conversation (its id comes with each answer); `reset` starts a new one. The visitor id is kept by the caller.
 */
export function useAgentChat({
  agentId,
  visitorId,
  onVisitorId,
  credentials,
}: {
  agentId: string
  visitorId?: string
  onVisitorId?: (id: string) => void
  credentials?: RequestCredentials
}) {
  const [messages, setMessages] = React.useState<ChatMessage[]>([])
  const [conversationId, setConversationId] = React.useState<string | undefined>()
  const [busy, setBusy] = React.useState(false)
  const controller = React.useRef<AbortController | null>(null)

  const patch = React.useCallback((id: string, change: Partial<ChatMessage> | ((m: ChatMessage) => Partial<ChatMessage>)) => {
    setMessages(list => list.map(m => (m.id === id ? { ...m, ...(typeof change === 'function' ? change(m) : change) } : m)))
  }, [])

  const send = React.useCallback(
    async (query: string, overrides: ChatOverrides = {}) => {
      const text = query.trim()
      if (!text || controller.current) return
      const abort = new AbortController()
      controller.current = abort
      const answerId = newId()
      setMessages(list => [...list, { id: newId(), role: 'user', text, status: 'done' }, { id: answerId, role: 'assistant', text: '', status: 'streaming' }])
      setBusy(true)
      const input: AgentQueryInput = { query: text, conversationId, visitorId, ...overrides }
      try {
        const answer = await streamAgentQuery(agentId, input, {
          signal: abort.signal,
          credentials,
          onAnswer: piece => patch(answerId, m => ({ text: m.text + piece })),
        })
        patch(answerId, { text: answer.answer, sources: answer.sources ?? [], status: 'done' })
        setConversationId(answer.conversationId)
        if (answer.visitorId && answer.visitorId !== visitorId) onVisitorId?.(answer.visitorId)
      } catch (error) {
        if (isAbortError(error) || abort.signal.aborted) patch(answerId, { status: 'stopped' })
        else patch(answerId, { status: 'error', error: error instanceof ChatError ? error.message : 'Something went wrong while answering.' })
      } finally {
        if (controller.current === abort) controller.current = null
        setBusy(false)
      }
    },
    [agentId, conversationId, visitorId, onVisitorId, credentials, patch],
  )

  const stop = React.useCallback(() => controller.current?.abort(), [])

  const reset = React.useCallback(() => {
    controller.current?.abort()
    controller.current = null
    setMessages([])
    setConversationId(undefined)
    setBusy(false)
  }, [])

  // leaving the page ends a stream still running
  React.useEffect(() => () => controller.current?.abort(), [])

  return { messages, conversationId, busy, send, stop, reset }
}
