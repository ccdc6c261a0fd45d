import { METHODS, type Method, type RouteHandler } from '@/lib/api/endpoint'

// Which route file answers an /api path, the way Next's app router decides it (issue 28: scripts/serve.mjs answers
// the API's own routes without Next, lib/api/direct-dispatch.ts). A path's segments are compared one by one: a
// template's fixed segment must be equal, a `{placeholder}` takes any one segment; where two templates fit, the one
// whose first differing segment is fixed wins (`/api/conversations/export` before `/api/conversations/{id}`).
// Anything unusual (an empty segment, a trailing slash, an undecodable placeholder) is not found here: Next answers it.

/** A route file's exports: a handler for each method (a 405 for the undeclared ones), each with its contract. */
export type RouteModule = { readonly [M in Method]: RouteHandler & { contract?: { path: string } } }

interface Route {
  path: string
  segments: { fixed?: string; param?: string }[]
  handlers: Record<Method, RouteHandler>
}

export interface RouteMatch {
  /** the route's template, `/api/agents/{id}/query` */
  route: string
  handler: RouteHandler
  params: Record<string, string>
}

export type RouteTable = (method: string, pathname: string) => RouteMatch | null

function routeOf(module: RouteModule): Route | null {
  const path = METHODS.map(m => module[m].contract?.path).find(Boolean)
  if (!path?.startsWith('/api/')) return null
  const segments = path
    .split('/')
    .slice(1)
    .map(s => (/^\{\w+\}$/.test(s) ? { param: s.slice(1, -1) } : { fixed: s }))
  return { path, segments, handlers: Object.fromEntries(METHODS.map(m => [m, module[m]])) as Record<Method, RouteHandler> }
}

/** -1 when `a` is the more specific of two templates that both fit, 1 when `b` is. */
function moreSpecific(a: Route, b: Route): number {
  for (let i = 0; i < a.segments.length; i++) {
    const aFixed = a.segments[i].fixed !== undefined
    if (aFixed !== (b.segments[i].fixed !== undefined)) return aFixed ? -1 : 1
  }
  return 0
}

function paramsOf(route: Route, parts: string[]): Record<string, string> | null {
  const params: Record<string, string> = {}
  for (let i = 0; i < parts.length; i++) {
    const { fixed, param } = route.segments[i]
    if (fixed !== undefined) {
      if (fixed !== parts[i]) return null
      continue
    }
    try {
      params[param!] = decodeURIComponent(parts[i])
    } catch {
      return null
    }
  }
  return params
}

/** The table of `modules`' routes: for a method and a path, the handler and the path's placeholders, or null. */
export function routeTable(modules: readonly RouteModule[]): RouteTable {
  const byLength = new Map<number, Route[]>()
  for (const route of modules.map(routeOf)) {
    if (!route) continue
    byLength.set(route.segments.length, [...(byLength.get(route.segments.length) ?? []), route].sort(moreSpecific))
  }
  return (method, pathname) => {
    if (!(METHODS as readonly string[]).includes(method)) return null
    const parts = pathname.split('/').slice(1)
    if (parts.some(p => p === '')) return null
    for (const route of byLength.get(parts.length) ?? []) {
      const params = paramsOf(route, parts)
      if (params) return { route: route.path, handler: route.handlers[method as Method], params }
    }
    return null
  }
}
