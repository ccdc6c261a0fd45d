import { config } from '@/lib/config'
import type { HttpToolResource } from '@/lib/domain/agent-tools'
import { RefusedUrl, requestOnce } from '@/lib/ingest/web/request'
import type { OfferedTool, ToolKind } from './kind'
import { HttpToolBody } from './schemas'
import { maskHeaders, revealHeaders, storeHeaders, type StoredHeaders } from './secret-headers'

// An HTTP API the agent may call (issue 25): the model gives arguments matching `parameters`; `{placeholders}` of
// the URL are filled from them (URL-encoded), the rest go to the query string (GET, DELETE) or the JSON body. The
// call goes through the crawler's SSRF-guarded client: public addresses only (unless TOOLS_ALLOW_PRIVATE_HOSTS), a
// timeout, a cap on what is read; the model gets the response text, truncated.

export interface StoredHttpTool extends Omit<HttpToolBody, 'headers'> {
  headers: StoredHeaders
}

const PLACEHOLDER = /\{(\w+)\}/g

/** The URL and body of a call: placeholders filled from the arguments, the rest sent as the method sends data. */
export function requestFor(tool: Pick<StoredHttpTool, 'method' | 'url'>, args: Record<string, unknown>): { url: URL; body?: string } {
  const rest = { ...args }
  const filled = tool.url.replace(PLACEHOLDER, (_, name: string) => {
    if (rest[name] === undefined || rest[name] === null) throw new Error(`the argument "${name}" is missing`)
    const value = typeof rest[name] === 'object' ? JSON.stringify(rest[name]) : String(rest[name])
    delete rest[name]
    return encodeURIComponent(value)
  })
  const url = new URL(filled)
  if (tool.method === 'GET' || tool.method === 'DELETE') {
    for (const [k, v] of Object.entries(rest)) url.searchParams.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v))
    return { url }
  }
  return { url, body: JSON.stringify(rest) }
}

/** The response as the model reads it: its text, cut at TOOLS_RESULT_CHARS. */
function forTheModel(text: string): string {
  const max = config().TOOLS_RESULT_CHARS
  return text.length <= max ? text : `${text.slice(0, max)}\n…[truncated: ${text.length - max} more characters]`
}

async function callHttpTool(tool: StoredHttpTool, args: Record<string, unknown>, signal: AbortSignal): Promise<string> {
  const settings = config()
  const { url, body } = requestFor(tool, args)
  const headers = { accept: 'application/json, text/plain;q=0.9, */*;q=0.5', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...revealHeaders(tool.headers) }
  try {
    const res = await requestOnce(url, { method: tool.method, headers, body, signal, timeoutMs: settings.TOOLS_TIMEOUT_SECONDS * 1000, maxBytes: settings.TOOLS_MAX_RESPONSE_KB * 1024, allowPrivate: settings.TOOLS_ALLOW_PRIVATE_HOSTS })
    if (res.status >= 300) throw new Error(`the API answered HTTP ${res.status}${res.location ? ' (a redirect, not followed)' : ''}`)
    return forTheModel(res.body.toString('utf8'))
  } catch (error) {
    if (error instanceof RefusedUrl) throw new Error(`${url.hostname} is a private address: refused (TOOLS_ALLOW_PRIVATE_HOSTS=1 allows it)`)
    // the crawler's wording names its own setting
    if (/ is larger than /.test(error instanceof Error ? error.message : '')) throw new Error(`the response is larger than ${settings.TOOLS_MAX_RESPONSE_KB} KB (TOOLS_MAX_RESPONSE_KB): not read`)
    throw error
  }
}

export const httpTool: ToolKind<'http', HttpToolBody, StoredHttpTool, HttpToolResource> = {
  type: 'http',
  body: HttpToolBody,
  store: ({ headers, ...rest }, previous) => ({ ...rest, headers: storeHeaders(headers, previous?.headers, `tool "${rest.name}"`) }),
  resource: stored => ({ ...stored, headers: maskHeaders(stored.headers) }),
  offer: async stored => [
    {
      kind: 'http',
      name: stored.name,
      description: stored.description,
      inputSchema: stored.parameters,
      // an operator approves each call first (lib/agents/approvals): the run records it and stops until then
      requiresApproval: stored.requiresApproval,
      call: (args, signal) => callHttpTool(stored, args, signal),
    } satisfies OfferedTool,
  ],
}
