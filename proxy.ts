import { NextResponse, type NextRequest } from 'next/server'
import { resolveAlias } from '@/lib/http/aliases'
import { corsHeaders, preflightResponse } from '@/lib/http/cors'

// Before routing (DESIGN.md §7): Chaindesk's other paths are rewritten to ours (lib/http/aliases.ts), and CORS is
// answered for the routes a widget on another site calls, or for the origins an operator lists (lib/http/cors.ts).

/**
 * The public chat page is served with its agent's frame-ancestors (issue 14): framed by the sites of its allow-list
 * only. A private or unknown agent's page frames nowhere but here.
 */
async function chatPage(agentId: string): Promise<NextResponse> {
  const { publicAgentFace } = await import('@/lib/agents/public-face')
  const face = await Promise.resolve()
    .then(() => publicAgentFace(decodeURIComponent(agentId)))
    .catch(() => null)
  const res = NextResponse.next()
  const policy = face ? face.contentSecurityPolicy : "frame-ancestors 'self'"
  if (policy) res.headers.set('Content-Security-Policy', policy)
  return res
}

export function proxy(req: NextRequest): Response | Promise<Response> {
  const chat = /^\/chat\/([^/]+)\/?$/.exec(req.nextUrl.pathname)
  if (chat) return chatPage(chat[1])
  const alias = resolveAlias(req.method, req.nextUrl.pathname, req.headers, req.headers.get('host') ?? req.nextUrl.host)
  const pathname = alias ?? req.nextUrl.pathname
  const preflight = preflightResponse(req, pathname)
  if (preflight) return preflight
  let res: NextResponse
  if (alias) {
    const url = req.nextUrl.clone()
    url.pathname = alias
    res = NextResponse.rewrite(url)
  } else {
    res = NextResponse.next()
  }
  const cors = corsHeaders(req.method, pathname, req.headers.get('origin'))
  for (const [name, value] of Object.entries(cors ?? {})) res.headers.set(name, value)
  return res
}

export const config = {
  matcher: ['/chat/:path*', '/api/:path*', '/agents/:path*', '/datastores/:path*', '/datasources/:path*', '/query/:path*', '/query'],
}
