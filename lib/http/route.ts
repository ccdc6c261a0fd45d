import { randomUUID } from 'node:crypto'
import { ZodError } from 'zod'
import { ModelError, type ModelErrorKind } from '@/lib/domain/errors'
import { logger } from '@/lib/logger'
import { ApiError, InvalidRequest, MethodNotAllowed, UpstreamUnavailable } from './errors'

export interface ErrorBody {
  error: { code: string; message: string; details?: unknown; id?: string }
}

export function errorResponse(error: ApiError): Response {
  const body: ErrorBody = { error: { code: error.code, message: error.message } }
  if (error.details !== undefined) body.error.details = error.details
  return Response.json(body, { status: error.status, headers: error.headers })
}

export function zodIssues(error: ZodError) {
  return error.issues.map(i => ({ path: i.path.join('.'), message: i.message, code: i.code }))
}

const MODEL_ERROR_STATUS: Record<ModelErrorKind, number> = { not_configured: 503, failed: 502, timeout: 504 }

/** Turns anything thrown into the JSON error body. Unknown errors are bugs: 500 with an id that is in the log. */
export function toErrorResponse(error: unknown): Response {
  if (error instanceof ApiError) return errorResponse(error)
  if (error instanceof ModelError) return errorResponse(new UpstreamUnavailable(error.message, MODEL_ERROR_STATUS[error.kind]))
  if (error instanceof ZodError) return errorResponse(new InvalidRequest('The request is invalid', zodIssues(error)))
  const id = randomUUID()
  logger.error('unexpected error', { errorId: id, error })
  const body: ErrorBody = { error: { code: 'internal_error', message: `Internal error (id ${id})`, id } }
  return Response.json(body, { status: 500 })
}

/**
 * The caller's address: the last entry of X-Forwarded-For. scripts/serve.mjs (what `npm start` runs) sets that header
 * from the socket, dropping a client-sent one, or with TRUST_PROXY=1 leaves the header of the reverse proxy in front,
 * whose last entry is the one it appended; earlier entries are whatever the client sent, so they are not trusted.
 * Else X-Real-IP; else every anonymous caller shares one address, erring on the side of limiting.
 */
export function clientAddress(req: Request): string {
  const forwarded = req.headers.get('x-forwarded-for')?.split(',').at(-1)?.trim()
  return (forwarded || req.headers.get('x-real-ip')?.trim() || 'unknown').slice(0, 64)
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
type Method = (typeof METHODS)[number]

// Next passes dynamic segments as a promise; a catch-all segment is an array
type Params = Record<string, string | string[] | undefined>
export interface RouteContext<P extends Params = Params> {
  params: Promise<P>
}
export type RouteHandler<P extends Params = Params> = (req: Request, ctx: RouteContext<P>) => Promise<Response>

export function route<P extends Params>(handler: RouteHandler<P>): RouteHandler<P> {
  return async (req, ctx) => {
    try {
      return await handler(req, ctx)
    } catch (error) {
      return toErrorResponse(error)
    }
  }
}

/**
 * A route module's handlers: the ones given, wrapped by route(), and a JSON 405 for every other method, so that
 * `export const { GET, POST, PUT, PATCH, DELETE } = routes({ GET: ... })` is the whole export of a route file.
 */
export function routes<P extends Params>(handlers: Partial<Record<Method, RouteHandler<P>>>): Record<Method, RouteHandler<P>> {
  const allowed = METHODS.filter(m => handlers[m])
  return Object.fromEntries(
    METHODS.map(m => {
      const handler = handlers[m]
      return [m, handler ? route(handler) : async (req: Request) => toErrorResponse(new MethodNotAllowed(req.method, allowed))]
    }),
  ) as Record<Method, RouteHandler<P>>
}
