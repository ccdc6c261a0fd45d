import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { config } from '@/lib/config'
import type { McpToolResource } from '@/lib/domain/agent-tools'
import { checkHost, RefusedUrl } from '@/lib/ingest/web/request'
import { logger } from '@/lib/logger'
import type { OfferedTool, ToolContext, ToolKind } from './kind'
import { McpToolBody } from './schemas'
import { maskHeaders, revealHeaders, storeHeaders, type StoredHeaders } from './secret-headers'

// An external MCP server (issue 25), over Streamable HTTP with the official SDK's client: its tools are listed when
// an answer starts and offered to the model as "<server name>__<tool>", so that two servers' tools (or an HTTP
// tool) never share a name. The server's address passes the same private-address rule as the HTTP tools.


export interface StoredMcpTool extends Omit<McpToolBody, 'headers'> {
  headers: StoredHeaders
}

/** fetch, after the private-address rule and within the tools' timeout. */
function guardedFetch(signal: AbortSignal): typeof fetch {
  const settings = config()
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    try {
      await checkHost(url.hostname, settings.TOOLS_ALLOW_PRIVATE_HOSTS)
    } catch (error) {
      if (error instanceof RefusedUrl) throw new Error(`${url.hostname} is a private address: refused (TOOLS_ALLOW_PRIVATE_HOSTS=1 allows it)`)
      throw error
    }
    const timeout = AbortSignal.timeout(settings.TOOLS_TIMEOUT_SECONDS * 1000)
    return fetch(input, { ...init, redirect: 'error', signal: AbortSignal.any([signal, timeout, ...(init?.signal ? [init.signal] : [])]) })
  }
}

async function connect(stored: StoredMcpTool, context: ToolContext): Promise<Client> {
  const client = new Client({ name: 'agent-datastore-service', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL(stored.url), { requestInit: { headers: revealHeaders(stored.headers) }, fetch: guardedFetch(context.signal) })
  await client.connect(transport, { signal: context.signal, timeout: config().TOOLS_TIMEOUT_SECONDS * 1000 })
  context.defer(() => client.close())
  return client
}

/** The text of a tool's result; an `isError` result throws it, for the model to read as the call's error. */
function resultText(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = Array.isArray(result.content) ? result.content : []
  const text = content.map(c => (c.type === 'text' ? c.text : JSON.stringify(c))).join('\n') || JSON.stringify(result.structuredContent ?? {})
  if (result.isError) throw new Error(text || 'the tool failed')
  return text
}

/** "<server>__<tool>", in the characters function names may hold. */
export const offeredName = (server: string, tool: string) => `${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64)

async function offerMcpTools(stored: StoredMcpTool, context: ToolContext): Promise<OfferedTool[]> {
  try {
    const client = await connect(stored, context)
    const { tools } = await client.listTools(undefined, { signal: context.signal, timeout: config().TOOLS_TIMEOUT_SECONDS * 1000 })
    const allowed = stored.allowedTools ? tools.filter(t => stored.allowedTools!.includes(t.name)) : tools
    return allowed.map(tool => ({
      kind: 'mcp' as const,
      name: offeredName(stored.name, tool.name),
      description: tool.description ?? tool.title ?? tool.name,
      inputSchema: tool.inputSchema as Record<string, unknown>,
      call: async (args, signal) => resultText(await client.callTool({ name: tool.name, arguments: args }, undefined, { signal, timeout: config().TOOLS_TIMEOUT_SECONDS * 1000 })),
    }))
  } catch (error) {
    // an unreachable server costs its tools, not the answer
    logger.warn('an MCP server of an agent could not be reached', { agentId: context.agentId, tool: stored.name, reason: error instanceof Error ? error.message : String(error) })
    return []
  }
}

export const mcpTool: ToolKind<'mcp', McpToolBody, StoredMcpTool, McpToolResource> = {
  type: 'mcp',
  body: McpToolBody,
  store: ({ headers, ...rest }, previous) => ({ ...rest, headers: storeHeaders(headers, previous?.headers, `tool "${rest.name}"`) }),
  resource: stored => ({ ...stored, headers: maskHeaders(stored.headers) }),
  offer: offerMcpTools,
}
