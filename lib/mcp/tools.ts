import { randomUUID } from 'node:crypto'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { Contract } from '@/lib/api/endpoint'
import { resolveAgentAccess } from '@/lib/agents/agent-access'
import { AgentQueryBody } from '@/lib/agents/agent-schemas'
import { listAgents } from '@/lib/agents/agents'
import { queryAgent } from '@/lib/agents/query-agent'
import { listDatastores } from '@/lib/datastores/datastores'
import { queryDatastore } from '@/lib/datastores/query'
import { DatastoreQueryBody } from '@/lib/datastores/schemas'
import { scopesAllow } from '@/lib/domain/access'
import type { TenantContext } from '@/lib/domain/tenant'
import { ApiError, NotFound } from '@/lib/http/errors'
import { logger } from '@/lib/logger'
import pkg from '@/package.json'
import { toolDescription, toolInputSchema, type ToolOrigin } from './tool-schema'

// The service as an MCP server (DESIGN.md §12): four tools an AI assistant (Claude Desktop, Cursor, an IDE) calls
// with an API key, each one a REST endpoint in another dress. The handlers call the same services as the routes, so
// what a tool may see is what the key may see (its datastoreIds, agentIds). A key sees only the tools its scopes allow
// (each tool needs the scope of the REST endpoint it stands for): another one is not listed, and calling it is the
// SDK's tool error "not found". A failure is a tool error the assistant reads, never a transport error.

/** The REST endpoints the tools stand for, as their route files declare them. */
export interface McpOrigins {
  listDatastores: Contract
  queryDatastore: Contract
  listAgents: Contract
  queryAgent: Contract
}

type Args = Record<string, unknown>
interface McpTool {
  name: string
  purpose: string
  origin: ToolOrigin
  run: (ctx: TenantContext, args: Args) => Promise<Record<string, unknown>>
}

function tools(origins: McpOrigins): McpTool[] {
  return [
    {
      name: 'list_datastores',
      purpose: "Lists the organization's datastores (knowledge bases): their ids, names and descriptions. Call it first to find the datastoreId to search.",
      origin: { contract: origins.listDatastores },
      run: async ctx => ({ datastores: await listDatastores(ctx) }),
    },
    {
      name: 'search_datastore',
      purpose: 'Searches one datastore and returns the best matching fragments of its documents, with their sources and scores.',
      origin: { contract: origins.queryDatastore, params: { id: 'datastoreId' }, fields: ['query', 'topK', 'filters'] },
      run: async (ctx, { datastoreId, ...body }) => ({ fragments: await queryDatastore(ctx, String(datastoreId), DatastoreQueryBody.parse(body)) }),
    },
    {
      name: 'list_agents',
      purpose: "Lists the organization's agents (assistants answering from datastores): their ids, names, descriptions and datastores.",
      origin: { contract: origins.listAgents },
      run: async ctx => ({ agents: await listAgents(ctx) }),
    },
    {
      name: 'ask_agent',
      purpose: 'Asks an agent a question: it searches its datastores and answers with its sources. Pass conversationId to follow up.',
      origin: { contract: origins.queryAgent, params: { id: 'agentId' }, fields: ['query', 'conversationId'] },
      run: askAgent,
    },
  ]
}

async function askAgent(ctx: TenantContext, { agentId, ...body }: Args): Promise<Record<string, unknown>> {
  const access = await resolveAgentAccess(ctx, String(agentId))
  // only the key's own agents: a public agent of another organization is not one of its tools' targets
  if (!access.member) throw new NotFound('Agent')
  const reply = await queryAgent(access, AgentQueryBody.parse({ ...body, streaming: false }), { clientAddress: 'mcp' })
  if (reply.kind !== 'json') throw new Error('a JSON answer was expected')
  return reply.answer
}

/** A tool error the assistant can act on: the API's message for a known failure, an id to look up otherwise. */
function toolError(tool: string, error: unknown): CallToolResult {
  if (error instanceof ApiError) return { isError: true, content: [{ type: 'text', text: `${error.code}: ${error.message}` }] }
  const id = randomUUID()
  logger.error('mcp tool failed', { tool, errorId: id, error })
  return { isError: true, content: [{ type: 'text', text: `internal_error: the tool failed (error id ${id})` }] }
}

/** Whether the caller's scopes allow the REST endpoint the tool stands for. */
function allowed(ctx: TenantContext, tool: McpTool): boolean {
  const access = tool.origin.contract.access
  return !ctx.grant || access === 'public' || scopesAllow(ctx.grant.scopes, { scope: access.scope })
}

/** An MCP server for one request of one caller (the transport is stateless: DESIGN.md §12). */
export function mcpServerFor(ctx: TenantContext, origins: McpOrigins): McpServer {
  const server = new McpServer({ name: 'agent-datastore-service', version: pkg.version })
  for (const tool of tools(origins).filter(t => allowed(ctx, t))) {
    server.registerTool(tool.name, { description: toolDescription(tool.origin, tool.purpose), inputSchema: toolInputSchema(tool.origin) }, async (args: Args) => {
      try {
        const result = await tool.run(ctx, args)
        return { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }], structuredContent: result }
      } catch (error) {
        return toolError(tool.name, error)
      }
    })
  }
  return server
}
