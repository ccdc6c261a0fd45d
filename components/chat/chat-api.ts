// The chat's data layer: every /api URL the chat components use is written here, and nowhere else in components/chat.
import type { PublicAgent } from '@/components/agents/types'
import { ApiError, apiFetch } from '@/components/api-client'
import type { ConversationDetail } from '@/lib/domain/agents'

const agentPath = (agentId: string) => `/api/agents/${encodeURIComponent(agentId)}`

/** POST /api/agents/{id}/query (spec §4.2) asking for the event stream; the raw response, for the stream reader. */
export function postAgentQuery(agentId: string, body: object, init: { signal?: AbortSignal; credentials: RequestCredentials }): Promise<Response> {
  return fetch(`${agentPath(agentId)}/query`, {
    method: 'POST',
    credentials: init.credentials,
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ ...body, streaming: true }),
    signal: init.signal,
  })
}

/** The agent if it may be chatted with publicly, else null (private, unknown, deleted). Sent without cookies. */
export async function fetchPublicAgent(agentId: string): Promise<PublicAgent | null> {
  try {
    const agent = await apiFetch<PublicAgent>(agentPath(agentId), { credentials: 'omit' })
    return agent.visibility === 'public' ? agent : null
  } catch (error) {
    if (error instanceof ApiError && [400, 401, 403, 404].includes(error.status)) return null
    throw error
  }
}

/** A conversation of a public agent, read by the visitor who holds its id (no cookies); null when it is gone. */
export async function fetchPublicConversation(conversationId: string): Promise<ConversationDetail | null> {
  try {
    return await apiFetch<ConversationDetail>(`/api/conversations/${encodeURIComponent(conversationId)}`, { credentials: 'omit' })
  } catch (error) {
    if (error instanceof ApiError && [401, 403, 404].includes(error.status)) return null
    throw error
  }
}

export function fetchConversation(conversationId: string): Promise<ConversationDetail> {
  return apiFetch<ConversationDetail>(`/api/conversations/${encodeURIComponent(conversationId)}`)
}

/** POST /api/conversations/{id}/messages/{messageId}/feedback: the caller's vote on an answer (one per voter, changeable). */
export function postFeedback(
  target: { conversationId: string; messageId: string },
  body: { vote: 'good' | 'bad'; comment?: string | null; visitorId?: string },
  credentials: RequestCredentials = 'same-origin',
): Promise<{ id: string; vote: 'good' | 'bad'; comment: string | null }> {
  const path = `/api/conversations/${encodeURIComponent(target.conversationId)}/messages/${encodeURIComponent(target.messageId)}/feedback`
  return apiFetch(path, { method: 'POST', json: body, credentials })
}

/** The support workflow (issue 23), as the visitor calls it (no cookies): ask for a person, or say it is resolved. */
export function patchConversationStatus(conversationId: string, status: 'HUMAN_REQUESTED' | 'RESOLVED'): Promise<unknown> {
  return apiFetch(`/api/conversations/${encodeURIComponent(conversationId)}`, { method: 'PATCH', json: { status }, credentials: 'omit' })
}

/** The visitor's message to the person who has the conversation (the model is not asked). */
export function postVisitorMessage(conversationId: string, body: { message: string; visitorId?: string }): Promise<unknown> {
  return apiFetch(`/api/conversations/${encodeURIComponent(conversationId)}/message`, {
    method: 'POST',
    json: { ...body, from: 'human', channel: 'website' },
    credentials: 'omit',
  })
}
