import { endpoint, endpoints } from '@/lib/api/endpoint'
import { answerMcpRequest } from '@/lib/http/mcp'
import { MCP_PROTOCOL_DESCRIPTION, McpRequestBody, McpResponse } from '@/lib/mcp/protocol'
import { mcpServerFor, type McpOrigins } from '@/lib/mcp/tools'
import * as agentQuery from '../agents/[id]/query/route'
import * as agents from '../agents/route'
import * as datastoreQuery from '../datastores/[id]/query/route'
import * as datastores from '../datastores/route'

// The tools stand for these endpoints: their declarations give the tools' descriptions and input schemas
const origins: McpOrigins = {
  listDatastores: datastores.GET.contract,
  queryDatastore: datastoreQuery.POST.contract,
  listAgents: agents.GET.contract,
  queryAgent: agentQuery.POST.contract,
}

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/mcp', {
  POST: endpoint({
    summary: 'The service as an MCP server (Streamable HTTP, stateless): datastores and agents as tools',
    description: MCP_PROTOCOL_DESCRIPTION,
    // each tool needs its REST endpoint's scope: a key with any of them connects and lists the tools it may call
    access: { scope: 'datastores:read', orScopes: ['agents:read', 'agents:query'] },
    body: McpRequestBody,
    response: McpResponse,
    protocol: 'mcp',
    handler: ({ req, ctx, body }) => answerMcpRequest(req, body, mcpServerFor(ctx, origins)),
  }),
})
