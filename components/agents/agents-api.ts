// The agents area's calls to the API (spec §4.1-4.4): the only module of components/agents that knows a URL.
import { apiFetch } from '@/components/api-client'
import type { toAgentBody } from './agent-form-schema'
import type { Agent } from './types'

/** What the agent form sends to create or update an agent. */
export type AgentBody = ReturnType<typeof toAgentBody>

const agentPath = (id: string) => `/api/agents/${encodeURIComponent(id)}`

export function listAgents(): Promise<Agent[]> {
  return apiFetch('/api/agents')
}

export function getAgent(id: string): Promise<Agent> {
  return apiFetch(agentPath(id))
}

export function createAgent(body: AgentBody): Promise<Agent> {
  return apiFetch('/api/agents', { method: 'POST', json: body })
}

export function updateAgent(id: string, body: AgentBody): Promise<Agent> {
  return apiFetch(agentPath(id), { method: 'PATCH', json: body })
}

export function deleteAgent(id: string): Promise<Agent> {
  // spec §4.4: the body is an empty object
  return apiFetch(agentPath(id), { method: 'DELETE', json: {} })
}

/** A new visitor signing secret (issue 14), answered once; the previous one stops verifying at once. */
export function rotateVisitorSecret(id: string): Promise<{ secret: string; prefix: string }> {
  return apiFetch(`${agentPath(id)}/visitor-secret`, { method: 'POST', json: {} })
}
