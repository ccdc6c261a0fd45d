import { endpoint, endpoints } from '@/lib/api/endpoint'
import { refreshAgentTools } from '@/lib/agents/agents'
import { AgentResource } from '@/lib/domain/agents'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/agents/{id}/tools/refresh', {
  // issue 25: an MCP server's tools are listed when the agent is saved and kept; this lists them again
  POST: endpoint({
    summary: "List the agent's MCP servers' tools again and keep the new lists",
    description: 'Each MCP server is asked for its tools; the agent keeps the list (or, for a server that cannot be reached, its `listError`). Answers use the kept list and do not list the servers themselves.',
    access: { scope: 'agents:write' },
    response: AgentResource,
    handler: ({ ctx, params }) => refreshAgentTools(ctx, params.id),
  }),
})
