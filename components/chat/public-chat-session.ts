'use client'

import * as React from 'react'
import type { ConversationMessage } from '@/lib/domain/agents'
import { fetchPublicConversation } from './chat-api'
import type { ChatMessage, VisitorIdentity } from './use-agent-chat'

// What the public chat keeps of a visitor between page loads (issue 14): the visitor id and the current
// conversation's id, in this browser's storage (inside the bubble's iframe, storage partitioned by the embedding
// site); the conversation itself is read back from the server. And the bridge to the bubble script (public/widget.js)
// when the chat runs in its iframe: "ready" and "close" go up, a signed identity comes down.

const VISITOR_KEY = 'ads-chat-visitor-id'
const conversationKey = (agentId: string, identity?: VisitorIdentity) => `ads-chat-conversation:${agentId}:${identity?.visitorId ?? ''}`

function read(key: string): string | undefined {
  try {
    return localStorage.getItem(key) ?? undefined
  } catch {
    return undefined // storage blocked (a third-party iframe with strict settings): the chat still works, unremembered
  }
}

function write(key: string, value: string | undefined) {
  try {
    if (value) localStorage.setItem(key, value)
    else localStorage.removeItem(key)
  } catch {}
}

export const readVisitorId = () => read(VISITOR_KEY)
export const saveVisitorId = (id: string) => write(VISITOR_KEY, id)
export const readConversationId = (agentId: string, identity?: VisitorIdentity) => read(conversationKey(agentId, identity))
export const saveConversationId = (agentId: string, identity: VisitorIdentity | undefined, id: string | undefined) =>
  write(conversationKey(agentId, identity), id)

export function toChatMessage(m: ConversationMessage): ChatMessage {
  return {
    id: m.id,
    messageId: m.id,
    role: m.role,
    text: m.text,
    sources: m.sources,
    status: m.error ? 'error' : 'done',
    ...(m.error ? { error: m.error } : {}),
    ...(m.operatorName ? { operatorName: m.operatorName } : {}),
  }
}

/**
 * Reads back the stored conversation once the visitor is known: `restore` gets its messages; a conversation gone
 * (deleted, or of another visitor) is forgotten. `ready` turns true when there was nothing to read or it is shown.
 */
export function useRestoredConversation(
  agentId: string,
  identity: VisitorIdentity | undefined,
  restore: (id: string | undefined, messages: ChatMessage[]) => void,
  enabled: boolean,
): boolean {
  const [ready, setReady] = React.useState(false)
  React.useEffect(() => {
    if (!enabled) return
    const id = readConversationId(agentId, identity)
    if (!id) {
      restore(undefined, [])
      setReady(true)
      return
    }
    let cancelled = false
    fetchPublicConversation(id)
      .then(conversation => {
        if (cancelled) return
        if (conversation) restore(conversation.id, conversation.messages.map(toChatMessage))
        else {
          restore(undefined, [])
          saveConversationId(agentId, identity, undefined)
        }
      })
      .catch(() => {})
      .finally(() => !cancelled && setReady(true))
    return () => {
      cancelled = true
    }
  }, [agentId, identity, restore, enabled])
  return ready
}

type BridgeMessage = { type: 'agent-chat:identify'; visitorId: string; signature: string; expires: number }

/**
 * In the bubble's iframe: tells the page the chat is ready (the page answers with the identity it was given, if any)
 * and offers `close`. `settled` turns true once the page answered, or at once outside an iframe.
 */
export function useWidgetBridge(embedded: boolean): { identity?: VisitorIdentity; settled: boolean; close: () => void } {
  const [identity, setIdentity] = React.useState<VisitorIdentity | undefined>()
  const [settled, setSettled] = React.useState(!embedded)
  React.useEffect(() => {
    if (!embedded || window.parent === window) {
      setSettled(true)
      return
    }
    const onMessage = (event: MessageEvent) => {
      if (event.source !== window.parent) return
      const data = (event.data ?? {}) as Partial<BridgeMessage> | { type?: string }
      if (data.type === 'agent-chat:identify' && 'visitorId' in data) {
        const { visitorId, signature, expires } = data
        if (typeof visitorId === 'string' && typeof signature === 'string' && typeof expires === 'number') {
          setIdentity(old => (old && old.visitorId === visitorId && old.signature === signature ? old : { visitorId, signature, expires }))
        }
      }
      if (data.type === 'agent-chat:identify' || data.type === 'agent-chat:anonymous') setSettled(true)
      // the bubble opened: the question box takes the keyboard
      if (data.type === 'agent-chat:focus') document.querySelector<HTMLTextAreaElement>('main textarea')?.focus()
    }
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) window.parent.postMessage({ type: 'agent-chat:close' }, '*')
    }
    window.addEventListener('message', onMessage)
    window.addEventListener('keydown', onKey)
    window.parent.postMessage({ type: 'agent-chat:ready' }, '*')
    // a page without the bubble script (a plain iframe) never answers: go on without an identity
    const timer = window.setTimeout(() => setSettled(true), 1500)
    return () => {
      window.removeEventListener('message', onMessage)
      window.removeEventListener('keydown', onKey)
      window.clearTimeout(timer)
    }
  }, [embedded])
  const close = React.useCallback(() => window.parent.postMessage({ type: 'agent-chat:close' }, '*'), [])
  return { identity, settled, close }
}
