import { z } from 'zod'
import { AgentCreateBody } from '@/lib/agents/agent-schemas'
import { createAgent, listAgents } from '@/lib/agents/agents'
import { AgentResource } from '@/lib/domain/agents'
import { endpoint, endpoints } from '@/lib/api/endpoint'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/agents', {
  GET: endpoint({
    summary: "The organization's agents",
    access: { scope: 'agents:read' },
    response: z.array(AgentResource),
    handler: ({ ctx }) => listAgents(ctx),
  }),
  POST: endpoint({
    summary: 'Create an agent',
    access: { scope: 'agents:write' },
    body: AgentCreateBody,
    response: AgentResource,
    status: 201,
    handler: ({ ctx, body }) => createAgent(ctx, body),
  }),
})
