// The agents area's calls to the API (spec §4.1-4.4), by the endpoints' declarations (components/api-client.ts).
import { api, ApiError } from '@/components/api-client'
import type { toAgentBody } from './agent-form-schema'
import type { Agent } from './types'

/** What the agent form sends to create or update an agent. */
export type AgentBody = ReturnType<typeof toAgentBody>

export const listAgents = () => api('GET /api/agents')
/** The whole agent, as its organization sees it (a stranger would see a public agent's face only). */
export async function getAgent(id: string): Promise<Agent> {
  const agent = await api('GET /api/agents/{id}', { params: { id } })
  if (!('modelName' in agent)) throw new ApiError('This agent belongs to another organization', 404, 'not_found')
  return agent
}
export const createAgent = (body: AgentBody) => api('POST /api/agents', { body })
export const updateAgent = (id: string, body: AgentBody) => api('PATCH /api/agents/{id}', { params: { id }, body })
// spec §4.4: the body is an empty object
export const deleteAgent = (id: string) => api('DELETE /api/agents/{id}', { params: { id }, body: {} })
/** A new visitor signing secret, answered once; the previous one stops verifying at once. */
export const rotateVisitorSecret = (id: string) => api('POST /api/agents/{id}/visitor-secret', { params: { id } })
