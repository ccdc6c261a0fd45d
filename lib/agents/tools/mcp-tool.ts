import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { config } from '@/lib/config'
import type { McpToolResource } from '@/lib/domain/agent-tools'
import { RefusedUrl, vettedFetch } from '@/lib/ingest/web/request'
import { logger } from '@/lib/logger'
import type { OfferedTool, ToolContext, ToolKind } from './kind'
import { McpToolBody } from './schemas'
import { maskHeaders, revealHeaders, storeHeaders, type StoredHeaders } from './secret-headers'

// An external MCP server (issue 25), over Streamable HTTP with the official SDK's client: its tools are listed when
// the agent is saved (or refreshed: POST /api/agents/{id}/tools/refresh) and the list is kept with the agent, so an
// answer offers them without asking the server; the server is reached only when the model calls one. They are
// offered as "<server name>__<tool>", so that two servers' tools (or an HTTP tool) never share a name. A server that
// could not be listed when saved is kept with the error (shown in the API and the form), and listed again by each
// answer until a refresh succeeds. The server's address passes the same private-address rule as the HTTP tools.

/** A tool of the server, as listed. */
interface ListedTool {
  name: string
  description: string
  inputSchema: Record<string, unknown>
}

export interface StoredMcpTool extends Omit<McpToolBody, 'headers'> {
  headers: StoredHeaders
  /** The server's tools when last listed (absent: never listed, as agents saved before the cache). */
  listed?: { tools: ListedTool[]; at: string; error: string | null }
}

/** fetch under the private-address rule (to the address checked, no redirect), within the tools' timeout. */
function guardedFetch(signal: AbortSignal): typeof fetch {
  const settings = config()
  const vetted = vettedFetch(settings.TOOLS_ALLOW_PRIVATE_HOSTS)
  return async (input, init) => {
    const timeout = AbortSignal.timeout(settings.TOOLS_TIMEOUT_SECONDS * 1000)
    try {
      return await vetted(input, { ...init, signal: AbortSignal.any([signal, timeout, ...(init?.signal ? [init.signal] : [])]) })
    } catch (error) {
      const host = new URL(input instanceof Request ? input.url : String(input)).hostname
      if (error instanceof RefusedUrl) throw new Error(`${host} is a private address: refused (TOOLS_ALLOW_PRIVATE_HOSTS=1 allows it)`)
      throw error
    }
  }
}

async function connect(stored: StoredMcpTool, signal: AbortSignal): Promise<Client> {
  const client = new Client({ name: 'agent-datastore-service', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL(stored.url), { requestInit: { headers: revealHeaders(stored.headers) }, fetch: guardedFetch(signal) })
  await client.connect(transport, { signal, timeout: config().TOOLS_TIMEOUT_SECONDS * 1000 })
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

async function listTools(client: Client, signal: AbortSignal): Promise<ListedTool[]> {
  const { tools } = await client.listTools(undefined, { signal, timeout: config().TOOLS_TIMEOUT_SECONDS * 1000 })
  return tools.map(t => ({ name: t.name, description: t.description ?? t.title ?? t.name, inputSchema: t.inputSchema as Record<string, unknown> }))
}

/** The server's tools now, for saving: the list, or the error that kept it from being listed. */
export async function listMcpServer(stored: StoredMcpTool): Promise<StoredMcpTool> {
  const at = new Date().toISOString()
  const signal = AbortSignal.timeout(config().TOOLS_TIMEOUT_SECONDS * 1000)
  let client: Client | undefined
  try {
    client = await connect(stored, signal)
    return { ...stored, listed: { tools: await listTools(client, signal), at, error: null } }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    logger.warn('an MCP server of an agent could not be listed', { tool: stored.name, reason })
    return { ...stored, listed: { tools: [], at, error: `could not list the server's tools: ${reason}` } }
  } finally {
    await client?.close().catch(() => {})
  }
}

function offersOf(stored: StoredMcpTool, tools: ListedTool[], client: () => Promise<Client>): OfferedTool[] {
  const allowed = stored.allowedTools ? tools.filter(t => stored.allowedTools!.includes(t.name)) : tools
  return allowed.map(tool => ({
    kind: 'mcp' as const,
    name: offeredName(stored.name, tool.name),
    description: tool.description,
    inputSchema: tool.inputSchema,
    call: async (args, signal) => resultText(await (await client()).callTool({ name: tool.name, arguments: args }, undefined, { signal, timeout: config().TOOLS_TIMEOUT_SECONDS * 1000 })),
  }))
}

async function offerMcpTools(stored: StoredMcpTool, context: ToolContext): Promise<OfferedTool[]> {
  // one session per answer, opened by the first call (or by the listing below), closed with the answer
  let session: Promise<Client> | undefined
  const client = () =>
    (session ??= connect(stored, context.signal).then(c => {
      context.defer(() => c.close())
      return c
    }))
  if (stored.listed && !stored.listed.error) return offersOf(stored, stored.listed.tools, client)
  try {
    return offersOf(stored, await listTools(await client(), context.signal), client)
  } catch (error) {
    // an unreachable server costs its tools, not the answer
    logger.warn('an MCP server of an agent could not be reached', { agentId: context.agentId, tool: stored.name, reason: error instanceof Error ? error.message : String(error) })
    return []
  }
}

export const mcpTool: ToolKind<'mcp', McpToolBody, StoredMcpTool, McpToolResource> = {
  type: 'mcp',
  body: McpToolBody,
  store: ({ headers, ...rest }, previous) => ({ ...rest, headers: storeHeaders(headers, previous?.headers, `tool "${rest.name}"`), ...(previous?.listed && { listed: previous.listed }) }),
  prepare: listMcpServer,
  resource: ({ listed, ...stored }) => ({
    ...stored,
    headers: maskHeaders(stored.headers),
    tools: (listed?.tools ?? []).map(t => ({ name: t.name, description: t.description })),
    listedAt: listed?.at ?? null,
    listError: listed?.error ?? null,
  }),
  offer: offerMcpTools,
}
