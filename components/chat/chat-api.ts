// The chat's calls to the API, by the endpoints' declarations (components/api-client.ts).
import { api, ApiError, apiUrl, type RequestOf } from '@/components/api-client'
import type { PublicAgentResource } from '@/lib/domain/agents'

/** POST /api/agents/{id}/query (spec §4.2) asking for the event stream; the raw response, for the stream reader. */
export function postAgentQuery(agentId: string, body: object, init: { signal?: AbortSignal; credentials: RequestCredentials }): Promise<Response> {
  return fetch(apiUrl('POST /api/agents/{id}/query', { params: { id: agentId } } as RequestOf<'POST /api/agents/{id}/query'>), {
    method: 'POST',
    credentials: init.credentials,
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ ...body, streaming: true }),
    signal: init.signal,
  })
}

/** A null for the refusals a visitor may meet (private, unknown, deleted, refused), else the error. */
async function orNull<T>(call: Promise<T>, refusals: number[]): Promise<T | null> {
  try {
    return await call
  } catch (error) {
    if (error instanceof ApiError && refusals.includes(error.status)) return null
    throw error
  }
}

/** The agent if it may be chatted with publicly, else null (private, unknown, deleted). Sent without cookies. */
export async function fetchPublicAgent(id: string): Promise<PublicAgentResource | null> {
  const agent = await orNull(api('GET /api/agents/{id}', { params: { id }, credentials: 'omit' }), [400, 401, 403, 404])
  if (agent?.visibility !== 'public') return null
  const { name, description, appearance, requireSignedVisitors } = agent
  return { id: agent.id, name, description, visibility: 'public', appearance, requireSignedVisitors }
}

/** A conversation of a public agent, read by the visitor who holds its id (no cookies); null when it is gone. */
export const fetchPublicConversation = (id: string) => orNull(api('GET /api/conversations/{id}', { params: { id }, credentials: 'omit' }), [401, 403, 404])

export const fetchConversation = (id: string) => api('GET /api/conversations/{id}', { params: { id } })

/** The caller's vote on an answer (one per voter, changeable). */
export function postFeedback(
  target: { conversationId: string; messageId: string },
  body: RequestOf<'POST /api/conversations/{id}/messages/{messageId}/feedback'>['body'],
  credentials: RequestCredentials = 'same-origin',
) {
  return api('POST /api/conversations/{id}/messages/{messageId}/feedback', { params: { id: target.conversationId, messageId: target.messageId }, body, credentials })
}

/** The support workflow (issue 23), as the visitor calls it (no cookies): ask for a person, or say it is resolved. */
export function patchConversationStatus(conversationId: string, status: 'HUMAN_REQUESTED' | 'RESOLVED') {
  return api('PATCH /api/conversations/{id}', { params: { id: conversationId }, body: { status }, credentials: 'omit' })
}

/** The visitor's message to the person who has the conversation (the model is not asked). */
export function postVisitorMessage(conversationId: string, body: { message: string; visitorId?: string }) {
  return api('POST /api/conversations/{id}/message', { params: { id: conversationId }, body: { ...body, from: 'human', channel: 'website' }, credentials: 'omit' })
}

/** The visitor's email, left so that a person can reply (a lead); stored once per conversation and email. */
export function captureLead(agentId: string, body: { visitorEmail: string; conversationId: string; visitorId?: string }) {
  return api('POST /api/agents/{id}/capture', { params: { id: agentId }, body, credentials: 'omit' })
}
