import { config } from '@/lib/config'

// CORS (DESIGN.md §7): the routes a widget on another site calls (a public agent's read and query, a public
// conversation's read) answer any origin, without credentials; every other route answers only the origins an
// operator lists in CORS_ORIGINS, and none by default. Applied by proxy.ts before the route runs.

const PUBLIC_ROUTES: { method: string; path: RegExp }[] = [
  { method: 'GET', path: /^\/api\/agents\/[^/]+\/?$/ },
  { method: 'POST', path: /^\/api\/agents\/[^/]+\/query\/?$/ },
  { method: 'GET', path: /^\/api\/conversations\/[^/]+\/?$/ },
  // a visitor's vote on an answer (issue 14), ours and Chaindesk's
  { method: 'POST', path: /^\/api\/conversations\/[^/]+\/messages\/[^/]+\/feedback\/?$/ },
  { method: 'POST', path: /^\/api\/conversations\/eval-answer\/?$/ },
  // the support workflow (issue 23): "Request Human" / "Mark As Resolved", the lead form, a visitor's messages to a person
  { method: 'PATCH', path: /^\/api\/conversations\/[^/]+\/?$/ },
  { method: 'POST', path: /^\/api\/agents\/[^/]+\/capture\/?$/ },
  { method: 'POST', path: /^\/api\/conversations\/[^/]+\/message\/?$/ },
]

/**
 * The site a browser's request comes from, and the hosts of this service (the Host it was sent to, and the public
 * URL next-auth is told, NEXTAUTH_URL, as a reverse proxy may rewrite Host), for a public agent's allow-list.
 */
export function requestSite(req: Request): { origin: string | null; ownHosts: string[] } {
  const ownHosts = [req.headers.get('host')]
  try {
    if (process.env.NEXTAUTH_URL) ownHosts.push(new URL(process.env.NEXTAUTH_URL).host)
  } catch {}
  return { origin: req.headers.get('origin'), ownHosts: ownHosts.filter((h): h is string => !!h) }
}

const ALLOWED_HEADERS = 'authorization, content-type, accept, last-event-id, cache-control, x-requested-with'

export function isPublicRoute(method: string, pathname: string): boolean {
  const m = method === 'HEAD' ? 'GET' : method
  return PUBLIC_ROUTES.some(r => r.method === m && r.path.test(pathname))
}

function listedOrigin(origin: string): boolean {
  const listed = config()
    .CORS_ORIGINS.split(',')
    .map(o => o.trim().replace(/\/+$/, ''))
    .filter(Boolean)
  return listed.includes('*') || listed.includes(origin)
}

/**
 * The CORS headers of a request to `pathname` (after any alias is resolved), or null when the route does not answer
 * this origin. `method` is the request's, or for a preflight the method it asks about.
 */
export function corsHeaders(method: string, pathname: string, origin: string | null): Record<string, string> | null {
  if (!origin) return null
  const anyOrigin = isPublicRoute(method, pathname)
  if (!anyOrigin && !listedOrigin(origin)) return null
  return {
    'Access-Control-Allow-Origin': anyOrigin ? '*' : origin,
    'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
    'Access-Control-Allow-Headers': ALLOWED_HEADERS,
    'Access-Control-Expose-Headers': 'Retry-After, Content-Type',
    'Access-Control-Max-Age': '600',
    ...(anyOrigin ? {} : { Vary: 'Origin' }),
  }
}

/** A preflight (OPTIONS with Access-Control-Request-Method): its answer, or null to let the route answer it. */
export function preflightResponse(req: Request, pathname: string): Response | null {
  const asked = req.headers.get('access-control-request-method')
  if (req.method !== 'OPTIONS' || !asked) return null
  const headers = corsHeaders(asked.toUpperCase(), pathname, req.headers.get('origin'))
  return headers ? new Response(null, { status: 204, headers }) : null
}
