import { z } from 'zod'
import { resolveAgentAccess } from '@/lib/agents/agent-access'
import { toAgentResource, toPublicAgentResource } from '@/lib/agents/agent-resource'
import { AgentDeleteBody, AgentUpdateBody } from '@/lib/agents/agent-schemas'
import { deleteAgent, updateAgent } from '@/lib/agents/agents'
import { AgentResource, PublicAgentResource } from '@/lib/domain/agents'
import { requestSite } from '@/lib/http/cors'
import { endpoint, endpoints } from '@/lib/api/endpoint'

const aliases = ['/agents/{id}']

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/agents/{id}', {
  // the agent's organization sees the whole resource; anyone sees a public agent's name and description (chat page)
  GET: endpoint({
    summary: 'An agent (a public agent without a key: its name, description and public face)',
    access: { scope: 'agents:read', anonymous: 'agent' },
    response: z.union([AgentResource, PublicAgentResource]),
    aliases,
    handler: async ({ req, ctx, params }) => {
      const access = await resolveAgentAccess(ctx, params.id, requestSite(req))
      return access.member ? toAgentResource(access.agent) : toPublicAgentResource(access.agent)
    },
  }),
  PATCH: endpoint({
    summary: 'Update an agent (spec §4.3)',
    access: { scope: 'agents:write' },
    body: AgentUpdateBody,
    response: AgentResource,
    aliases,
    handler: ({ ctx, params, body }) => updateAgent(ctx, params.id, body),
  }),
  DELETE: endpoint({
    summary: 'Delete an agent (spec §4.4)',
    access: { scope: 'agents:write' },
    body: AgentDeleteBody,
    bodyOptional: true,
    response: AgentResource,
    aliases,
    handler: ({ ctx, params }) => deleteAgent(ctx, params.id),
  }),
})
