import { z, type ZodType } from 'zod'
import { lowestRoleFor, scopesAllow, type Access, type Scope } from '@/lib/domain/access'
import type { TenantContext } from '@/lib/domain/tenant'
import { identify } from '@/lib/auth/tenant'
import { IdParam, parseJson, parseOptionalJson, parseSearchParams, validate } from '@/lib/http/body'
import { Forbidden, MethodNotAllowed, Unauthorized } from '@/lib/http/errors'
import { auditAction } from '@/lib/audit/action'
import { recordAudit } from '@/lib/audit/record'
import { clientAddress, requestIdOf, toErrorResponse } from '@/lib/http/route'
import { withLogContext } from '@/lib/logger'
import { metrics, statusClass } from '@/lib/metrics/registry'
import { checkRawResponse, checkResponse, validating } from './response-check'

export { UndocumentedResponse, validatedEndpoints } from './response-check'

// One declaration per endpoint (DESIGN.md §9, STYLE.md): its route file says, per method, what it is for, who may
// call it, what it takes and what it answers, with the handler. The wrapper authenticates, parses, calls and answers;
// the OpenAPI document, the dashboard's typed client, the hardening matrix and (next) the role and scope checks, the
// audit log and the MCP tools read the same declarations (app/api/registry.ts gathers them).

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
export type Method = (typeof METHODS)[number]

export const TAGS = ['Agents', 'Conversations', 'Datastores', 'Datasources', 'Webhooks', 'Account', 'Service'] as const
export type Tag = (typeof TAGS)[number]

/** The caller a handler gets: none for a public endpoint, maybe none where anonymous callers are let through. */
type CallerOf<A extends Access> = A extends 'public' ? null : A extends { anonymous: string } ? TenantContext | null : TenantContext

/** A body that is not one JSON value: the handler reads it from `req` (a file upload, or either form). */
export type FormBody = 'multipart' | 'json-or-multipart'

/** A success whose body is not JSON (a download, an export): its media types, for the document. */
export interface Download {
  mediaTypes: string[]
  description: string
}

export interface HandlerInput<A extends Access, Q, B> {
  req: Request
  ctx: CallerOf<A>
  /** The path's `{placeholders}`, each checked as an id. */
  params: Record<string, string>
  query: Q
  body: B
}

const REPLY = Symbol('reply')
/** A JSON success with a status other than the declared one (a duplicate upload is 200, not 201), or with headers (a cookie). */
export interface Reply<R> {
  [REPLY]: true
  status: number
  body: R
  headers?: Record<string, string>
}
export function reply<R>(body: R, status: number, headers?: Record<string, string>): Reply<R> {
  return { [REPLY]: true, status, body, headers }
}

/** What a schema parses into; undefined where there is none. */
type Parsed<S> = S extends ZodType ? z.output<S> : undefined
type Schema = ZodType | undefined
/** What a handler may return: its declared JSON (the schema's input, as it is parsed again in tests), or a raw response. */
type Answer<RS> = RS extends ZodType ? z.input<RS> | Reply<z.input<RS>> | Response : Response

export interface Declaration<A extends Access = Access, QS extends Schema = Schema, BS extends Schema = Schema, RS extends Schema = Schema> {
  summary: string
  description?: string
  /** Defaults to the tag of the path's first segment. */
  tag?: Tag
  access: A
  query?: QS
  /** A JSON body; `form` for bodies the handler reads itself. */
  body?: BS
  /** The JSON body may be absent (a DELETE with or without `{}`). */
  bodyOptional?: boolean
  form?: FormBody
  /** The JSON of a success. Absent with `download`. */
  response?: RS
  /** The endpoint may answer an event stream instead of `response` (the agent query with `streaming: true`). */
  stream?: string
  download?: Download
  /**
   * The answer is written by a protocol's own library (the MCP transport), as a raw response: what the document says
   * of it. Its JSON successes are still checked against `response` in tests.
   */
  protocol?: string
  status?: 200 | 201 | 202
  /** Chaindesk's other paths for this operation (proxy.ts rewrites them here). */
  aliases?: string[]
  /** false: a POST that changes nothing (a query) leaves no audit entry; other POST, PATCH, DELETE do (lib/audit). */
  audit?: false
  handler: (input: HandlerInput<A, Parsed<QS>, Parsed<BS>>) => Promise<Answer<RS>>
}

/** Types one method's declaration: the handler's input is inferred from `access`, `query` and `body`. */
export function endpoint<A extends Access, QS extends Schema = undefined, BS extends Schema = undefined, RS extends Schema = undefined>(
  declaration: Declaration<A, QS, BS, RS>,
): Declaration<A, QS, BS, RS> {
  return declaration
}

/** What the registry knows of an endpoint: its declaration, method and path (without the handler's code). */
export type Contract<M extends Method = Method, P extends string = string, D extends Declaration<any, any, any, any> = Declaration<any, any, any, any>> = D & {
  method: M
  path: P
}

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> }
export type RouteHandler = (req: Request, ctx: RouteContext) => Promise<Response>
export type EndpointHandler<C> = RouteHandler & { contract: C }

// `object`, not Declaration: a contextual Declaration<any…> would make endpoint() infer its access rule from it
type Declarations = Partial<Record<Method, object>>
type RouteExports<P extends string, D extends Declarations> = {
  [M in Method]: EndpointHandler<M extends keyof D ? (D[M] extends Declaration<any, any, any, any> ? Contract<M, P, D[M]> : undefined) : undefined>
}

/** The `{name}` placeholders of a path template. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(m => m[1])
}

export const TAG_OF_SEGMENT: Record<string, Tag> = {
  agents: 'Agents',
  conversations: 'Conversations',
  gaps: 'Conversations',
  datastores: 'Datastores',
  query: 'Datastores',
  datasources: 'Datasources',
  external: 'Datasources',
  webhooks: 'Webhooks',
  'api-keys': 'Account',
  usage: 'Account',
}

export function tagOf(contract: Contract): Tag {
  return contract.tag ?? TAG_OF_SEGMENT[contract.path.split('/')[2]] ?? 'Service'
}

async function callerOf(req: Request, access: Access): Promise<TenantContext | null> {
  if (access === 'public') return null
  const ctx = await identify(req)
  if (!ctx && !access.anonymous) throw new Unauthorized()
  if (ctx?.grant && !scopesAllow(ctx.grant.scopes, access)) throw forbidden(ctx, access.scope)
  return ctx
}

function forbidden(ctx: TenantContext, scope: Scope): Forbidden {
  const who = ctx.actor.type === 'api_key' ? 'This API key lacks' : `Your role needs at least ${lowestRoleFor(scope)}: it lacks`
  return new Forbidden('forbidden', `${who} the scope ${scope}`, { scope })
}

async function parsedParams(path: string, given: Promise<Record<string, string | string[] | undefined>>): Promise<Record<string, string>> {
  const values = await given
  return Object.fromEntries(pathParams(path).map(name => [name, validate(IdParam, values[name], `path parameter "${name}"`)]))
}

function isReply(value: unknown): value is Reply<unknown> {
  return typeof value === 'object' && value !== null && REPLY in value
}

function handle(method: Method, path: string, declaration: Declaration<any, any, any, any>): RouteHandler {
  const contract = { ...declaration, method, path } as Contract
  return async (req, context) => {
    const requestId = requestIdOf(req)
    const started = performance.now()
    const res = await withLogContext({ requestId }, () => answer(contract, req, context, requestId))
    res.headers.set('x-request-id', requestId)
    metrics().httpDuration.observe({ route: path, method, status: statusClass(res.status) }, (performance.now() - started) / 1000)
    return res
  }
}

/** The caller authenticated, the inputs parsed, the handler called, its answer framed (and, in tests, checked). */
async function answer(contract: Contract, req: Request, { params }: RouteContext, requestId: string): Promise<Response> {
  try {
    const input: HandlerInput<Access, unknown, unknown> = {
      req,
      ctx: await callerOf(req, contract.access),
      params: await parsedParams(contract.path, params),
      query: contract.query ? parseSearchParams(req, contract.query) : undefined,
      body: undefined,
    }
    if (contract.body) input.body = contract.bodyOptional ? await parseOptionalJson(req, contract.body) : await parseJson(req, contract.body)
    const result = await contract.handler(input as never)
    if (result instanceof Response) {
      if (validating()) await checkRawResponse(contract, result)
      return result
    }
    const status = isReply(result) ? result.status : (contract.status ?? 200)
    const body = isReply(result) ? result.body : result
    if (validating()) checkResponse(contract, status, body)
    if (input.ctx) await audit(contract, input.ctx, input.params, body, { clientAddress: clientAddress(req), requestId })
    return Response.json(body, { status, headers: isReply(result) ? result.headers : undefined })
  } catch (error) {
    return toErrorResponse(error, requestId)
  }
}

/** The audit entry of a change the caller made (none for reads, queries and anonymous visitors). */
async function audit(contract: Contract, ctx: TenantContext, params: Record<string, string>, body: unknown, request: { clientAddress: string; requestId: string }) {
  const change = contract.audit === false ? null : auditAction(contract.method, contract.path)
  if (!change) return
  const answered = (body ?? {}) as { id?: unknown; name?: unknown; email?: unknown }
  const id = params.id ?? params.datastoreId ?? params.userId ?? (typeof answered.id === 'string' ? answered.id : null)
  // a person is named by their email (an invitation, a member), anything else by its name
  const name = typeof answered.email === 'string' ? answered.email : typeof answered.name === 'string' ? answered.name : null
  await recordAudit(ctx, { action: change.action, target: { type: change.targetType, id, name }, ...request })
}


/**
 * A route file's exports: each declared method wrapped, a JSON 405 for every other, so that
 * `export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/…', { GET: endpoint({…}) })` is the whole file.
 */
export function endpoints<P extends string, D extends Declarations>(path: P, declarations: D): RouteExports<P, D> {
  const allowed = METHODS.filter(m => declarations[m])
  const notAllowed: RouteHandler = async req => {
    const requestId = requestIdOf(req)
    const res = toErrorResponse(new MethodNotAllowed(req.method, allowed), requestId)
    res.headers.set('x-request-id', requestId)
    return res
  }
  return Object.fromEntries(
    METHODS.map(m => {
      const declaration = declarations[m] as Declaration<any, any, any, any> | undefined
      if (!declaration) return [m, Object.assign(notAllowed, { contract: undefined })]
      return [m, Object.assign(handle(m, path, declaration), { contract: { ...declaration, method: m, path } })]
    }),
  ) as RouteExports<P, D>
}
