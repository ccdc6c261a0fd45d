// Chaindesk's other paths as aliases of ours (DESIGN.md §7), resolved by proxy.ts before routing: the forms its docs,
// scripts, Zapier app and Databerry's LangChain retriever call. The result is the /api path that answers them.

const SEGMENT = '([^/]+)'
const at = (pattern: string) => new RegExp(`^${pattern}/?$`)

/** POST-only forms that exist nowhere else, by any client. */
const POST_ALIASES: { path: RegExp; target: (id: string) => string }[] = [
  // Chaindesk's docs and scripts: https://api.chaindesk.ai/agents/{id}/query
  { path: at(`/agents/${SEGMENT}/query`), target: id => `/api/agents/${id}/query` },
  { path: at(`/(?:api/)?agents/query/${SEGMENT}`), target: id => `/api/agents/${id}/query` },
  // Chaindesk's Zapier app
  { path: at(`/(?:api/)?datastores/query/${SEGMENT}`), target: id => `/api/datastores/${id}/query` },
  // Databerry's query endpoint, as LangChain's ChaindeskRetriever / DataberryRetriever call it: answers {results}
  { path: at(`/query/${SEGMENT}`), target: id => `/api/query/${id}` },
]

/** The api-host forms: Chaindesk's api.chaindesk.ai served /datastores/..., /datasources/..., /agents/... without /api. */
const API_HOST_FORM = /^\/(?:agents|datastores|datasources)(?:\/|$)/

/** An API request, as opposed to a browser asking for a dashboard page: a Bearer key, a JSON body, or a preflight. */
function isApiRequest(method: string, headers: Headers): boolean {
  if (/^Bearer /i.test(headers.get('authorization') ?? '')) return true
  if (method === 'OPTIONS' && headers.has('access-control-request-method')) return true
  const type = headers.get('content-type')?.split(';')[0].trim().toLowerCase()
  return method !== 'GET' && method !== 'HEAD' && type === 'application/json'
}

/** The datastore of `POST /query` on a datastore's own host name (`{datastoreId}.databerry.ai`): the first label. */
function datastoreOfHost(host: string | null): string | null {
  const name = (host ?? '').replace(/:\d+$/, '')
  const label = name.split('.')[0]
  return name.includes('.') && /^[A-Za-z0-9_-]{1,128}$/.test(label) && !/^\d+$/.test(label) ? label : null
}

/**
 * The /api path a request to `pathname` stands for, or null when it is not an alias. `method` is the request's (a
 * preflight's asked method is read from its headers); `host` the Host name the request was sent to.
 */
export function resolveAlias(method: string, pathname: string, headers: Headers, host = headers.get('host')): string | null {
  const asked = method === 'OPTIONS' ? (headers.get('access-control-request-method') ?? '').toUpperCase() : method
  if (asked === 'POST') {
    for (const alias of POST_ALIASES) {
      const id = alias.path.exec(pathname)?.[1]
      if (id) return alias.target(id)
    }
    if (at('/query').test(pathname)) {
      const id = datastoreOfHost(host)
      if (id) return `/api/query/${encodeURIComponent(id)}`
    }
  }
  if (API_HOST_FORM.test(pathname) && isApiRequest(method, headers)) return `/api${pathname}`
  return null
}
