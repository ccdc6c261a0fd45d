'use client'

import * as React from 'react'
import { CheckCircle2, UserRound } from 'lucide-react'
import { errorMessage } from '@/components/api-client'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import type { AgentAppearance, ConversationDetail } from '@/lib/domain/agents'
import { captureLead, fetchPublicConversation, patchConversationStatus, postVisitorMessage } from './chat-api'
import { toChatMessage } from './public-chat-session'
import type { ChatMessage } from './use-agent-chat'

// The public chat's side of the support workflow (issue 23): "Talk to a person" and "Resolved" (each switched on in
// the agent's appearance), the operator's replies shown as they come (polling while a person is asked for or has the
// conversation, or while an action waits for an operator's approval), and the visitor's messages sent to that person
// instead of the model.

/** How often the chat looks for an operator's reply (ms). */
export const SUPPORT_POLL_MS = 3_000

type SupportState = Pick<ConversationDetail, 'status' | 'isAiEnabled' | 'lead' | 'awaitingApproval'>

export function usePublicSupport({
  agentId,
  conversationId,
  visitorId,
  busy,
  restore,
}: {
  agentId: string
  conversationId: string | undefined
  visitorId: string | undefined
  busy: boolean
  restore: (id: string | undefined, messages: ChatMessage[]) => void
}) {
  const [state, setState] = React.useState<SupportState | null>(null)
  // a read that comes back after the visitor started another conversation (Resolved, New conversation) is dropped
  const current = React.useRef(conversationId)
  current.current = conversationId
  // an action waited for an operator at the last look: the answer after the decision is read back too
  const awaited = React.useRef(false)
  const refresh = React.useCallback(async () => {
    if (!conversationId) return setState(null)
    const c = await fetchPublicConversation(conversationId).catch(() => null)
    if (!c || current.current !== conversationId) return
    setState({ status: c.status, isAiEnabled: c.isAiEnabled, lead: c.lead, awaitingApproval: c.awaitingApproval })
    // a person's replies, and what the visitor wrote to them, are read back from the server
    const fromServer = !c.isAiEnabled || c.status === 'HUMAN_REQUESTED' || c.awaitingApproval || awaited.current
    awaited.current = c.awaitingApproval
    if (c.status !== 'RESOLVED' && fromServer) restore(c.id, c.messages.map(toChatMessage))
  }, [conversationId, restore])
  React.useEffect(() => {
    if (!busy) void refresh()
  }, [refresh, busy])
  const waiting = state !== null && (!state.isAiEnabled || state.status === 'HUMAN_REQUESTED' || state.awaitingApproval)
  React.useEffect(() => {
    if (!waiting || busy) return
    const timer = setInterval(() => void refresh(), SUPPORT_POLL_MS)
    return () => clearInterval(timer)
  }, [waiting, busy, refresh])

  const personAnswers = state !== null && !state.isAiEnabled
  const sendToPerson = React.useCallback(
    async (message: string) => {
      if (!conversationId) return
      await postVisitorMessage(conversationId, { message, visitorId })
      await refresh()
    },
    [conversationId, visitorId, refresh],
  )
  const setStatus = React.useCallback(
    async (status: 'HUMAN_REQUESTED' | 'RESOLVED') => {
      if (!conversationId) return
      await patchConversationStatus(conversationId, status)
      if (status !== 'RESOLVED') await refresh()
    },
    [conversationId, refresh],
  )
  const leaveEmail = React.useCallback(
    async (visitorEmail: string) => {
      if (!conversationId) return
      await captureLead(agentId, { visitorEmail, conversationId, visitorId })
      await refresh()
    },
    [agentId, conversationId, visitorId, refresh],
  )
  return { state, personAnswers, sendToPerson, setStatus, leaveEmail }
}

/** The visitor's actions under the conversation: ask for a person, say it is resolved. */
export function SupportActions({
  appearance,
  state,
  onStatus,
  onResolved,
}: {
  appearance: AgentAppearance
  state: SupportState | null
  onStatus: (status: 'HUMAN_REQUESTED' | 'RESOLVED') => Promise<void>
  onResolved: () => void
}) {
  const [pending, setPending] = React.useState(false)
  if (!state || (!appearance.humanHandoff && !appearance.markResolved)) return null
  const act = async (status: 'HUMAN_REQUESTED' | 'RESOLVED') => {
    setPending(true)
    try {
      await onStatus(status)
      if (status === 'RESOLVED') onResolved()
    } finally {
      setPending(false)
    }
  }
  const asked = state.status === 'HUMAN_REQUESTED'
  return (
    <div className="flex flex-wrap items-center gap-2 border-t px-3 py-2 text-xs" data-testid="support-actions">
      {appearance.humanHandoff && (
        <Button type="button" variant="outline" size="sm" disabled={pending || asked} onClick={() => void act('HUMAN_REQUESTED')}>
          <UserRound aria-hidden /> {asked ? 'A person has been asked' : 'Talk to a person'}
        </Button>
      )}
      {appearance.markResolved && (
        <Button type="button" variant="ghost" size="sm" disabled={pending} onClick={() => void act('RESOLVED')}>
          <CheckCircle2 aria-hidden /> Resolved
        </Button>
      )}
      {!state.isAiEnabled && <span className="text-muted-foreground" data-testid="person-answering">A person from the team is answering.</span>}
    </div>
  )
}

/**
 * Where a person can reach the visitor (a lead, as Chaindesk's widget asks for it): an email, once a conversation has
 * started and while the agent offers a person; then the address it was left as.
 */
export function LeadForm({ appearance, state, onLeave }: { appearance: AgentAppearance; state: SupportState | null; onLeave: (email: string) => Promise<void> }) {
  const [email, setEmail] = React.useState('')
  const [problem, setProblem] = React.useState<string | null>(null)
  const [pending, setPending] = React.useState(false)
  if (!state || !appearance.humanHandoff) return null
  if (state.lead) {
    return (
      <p className="border-t px-3 py-2 text-xs text-muted-foreground" data-testid="lead-left">
        A person can reply to {state.lead.email}.
      </p>
    )
  }
  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    setPending(true)
    try {
      await onLeave(email.trim())
      setProblem(null)
    } catch (error) {
      setProblem(errorMessage(error))
    } finally {
      setPending(false)
    }
  }
  return (
    <form onSubmit={e => void submit(e)} className="flex flex-wrap items-center gap-2 border-t px-3 py-2 text-xs" aria-label="Leave your email">
      <label htmlFor="lead-email" className="text-muted-foreground">
        Your email, so a person can reply
      </label>
      <Input id="lead-email" type="email" required value={email} onChange={e => setEmail(e.target.value)} className="h-8 w-56 text-xs" autoComplete="email" aria-invalid={!!problem || undefined} />
      <Button type="submit" size="sm" variant="outline" disabled={pending || !email.trim()}>
        Leave my email
      </Button>
      {problem && (
        <span role="alert" className="text-destructive">
          {problem}
        </span>
      )}
    </form>
  )
}
