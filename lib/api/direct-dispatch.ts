import type { IncomingMessage, ServerResponse } from 'node:http'
import { logger } from '@/lib/logger'
import { openRequestSpan } from '@/lib/tracing/spans'
import { resolveAlias } from '@/lib/http/aliases'
import { corsHeaders } from '@/lib/http/cors'
import { requestBody } from '@/lib/http/node-body'
import { sendBody } from '@/lib/http/direct-send'
import { toErrorResponse } from '@/lib/http/route'
import { routeTable, type RouteMatch, type RouteModule } from './route-table'

// The API's own routes answered without Next (issue 28): scripts/serve.mjs hands each request here first, and to
// Next's handler when this returns false. Next's router, its proxy (proxy.ts, run before every /api request), its
// request and response adapters and its tracing cost about a sixth of a streamed question's CPU; the route files'
// handlers are plain (Request) => Response functions, so they are called as they are. What proxy.ts does for these
// paths is done here with the same functions (lib/http/aliases.ts, lib/http/cors.ts): an alias, a preflight, a
// trailing slash or anything the table does not know (lib/api/route-table.ts) is left to Next.

export type DirectDispatch = (req: IncomingMessage, res: ServerResponse, base: string) => boolean

/** Node's request as the Web request a route handler reads; `signal` aborts when the client goes away. */
function webRequest(req: IncomingMessage, url: URL, headers: Headers, signal: AbortSignal): Request {
  const method = req.method ?? 'GET'
  if (method === 'GET' || method === 'HEAD') return new Request(url, { method, headers, signal })
  return new Request(url, { method, headers, signal, body: requestBody(req), duplex: 'half' } as RequestInit)
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v)
    else if (value !== undefined) headers.set(name, value)
  }
  return headers
}

async function serve(route: RouteMatch, req: IncomingMessage, res: ServerResponse, url: URL, headers: Headers): Promise<void> {
  const gone = new AbortController()
  res.once('close', () => {
    if (!res.writableFinished) gone.abort()
  })
  const method = req.method ?? 'GET'
  const span = openRequestSpan(method, route.route, headers)
  let response: Response
  try {
    response = await span.run(() => route.handler(webRequest(req, url, headers, gone.signal), { params: Promise.resolve(route.params) }))
  } catch (error) {
    // the handlers answer their own errors (lib/api/endpoint.ts); this is a bug's last resort
    response = toErrorResponse(error)
  }
  span.set({ 'http.response.status_code': response.status })
  const cors = corsHeaders(method, url.pathname, headers.get('origin'))
  try {
    await sendBody(response, res, { extraHeaders: cors ?? {}, acceptEncoding: headers.get('accept-encoding'), gone: gone.signal })
  } finally {
    span.end()
  }
}

/** The dispatcher of `modules` (app/api/registry.ts): true when it answers the request, false to leave it to Next. */
export function directDispatcher(modules: readonly RouteModule[]): DirectDispatch {
  const table = routeTable(modules)
  return (req, res, base) => {
    const raw = req.url ?? '/'
    if (!raw.startsWith('/api/')) return false
    const query = raw.indexOf('?')
    const pathname = query === -1 ? raw : raw.slice(0, query)
    const method = req.method ?? 'GET'
    const route = table(method, pathname)
    if (!route) return false
    const headers = headersOf(req)
    if (resolveAlias(method, pathname, headers)) return false
    let url: URL
    try {
      url = new URL(raw, base)
    } catch {
      return false
    }
    // a path the URL parser rewrites (dot segments, encoded dots) is Next's to resolve
    if (url.pathname !== pathname) return false
    serve(route, req, res, url, headers).catch(error => {
      logger.error('a response could not be sent', { error })
      res.destroy()
    })
    return true
  }
}
