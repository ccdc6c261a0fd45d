import { randomUUID } from 'node:crypto'
import { ZodError } from 'zod'
import { ModelError, type ModelErrorKind } from '@/lib/domain/errors'
import { logger } from '@/lib/logger'
import { ApiError, InvalidRequest, UpstreamUnavailable } from './errors'

export interface ErrorBody {
  error: { code: string; message: string; details?: unknown; id?: string; requestId?: string }
}

/** The JSON error of `error`; with the request's id, which its log lines carry too (x-request-id). */
export function errorResponse(error: ApiError, requestId?: string): Response {
  const body: ErrorBody = { error: { code: error.code, message: error.message } }
  if (error.details !== undefined) body.error.details = error.details
  if (requestId) body.error.requestId = requestId
  return Response.json(body, { status: error.status, headers: error.headers })
}

export function zodIssues(error: ZodError) {
  return error.issues.map(i => ({ path: i.path.join('.'), message: i.message, code: i.code }))
}

const MODEL_ERROR_STATUS: Record<ModelErrorKind, number> = { not_configured: 503, failed: 502, timeout: 504 }

/** Turns anything thrown into the JSON error body. Unknown errors are bugs: 500 with an id that is in the log. */
export function toErrorResponse(error: unknown, requestId?: string): Response {
  if (error instanceof ApiError) return errorResponse(error, requestId)
  if (error instanceof ModelError) return errorResponse(new UpstreamUnavailable(error.message, MODEL_ERROR_STATUS[error.kind]), requestId)
  if (error instanceof ZodError) return errorResponse(new InvalidRequest('The request is invalid', zodIssues(error)), requestId)
  const id = randomUUID()
  logger.error('unexpected error', { errorId: id, error })
  const body: ErrorBody = { error: { code: 'internal_error', message: `Internal error (id ${id})`, id, ...(requestId ? { requestId } : {}) } }
  return Response.json(body, { status: 500 })
}

// A caller's own request id is kept when it is one (letters, digits and . _ : -), else the service makes one
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/

/** The request's id: the caller's `x-request-id` when well-formed, else a new one. */
export function requestIdOf(req: Request): string {
  const given = req.headers.get('x-request-id')?.trim()
  return given && WELL_FORMED_REQUEST_ID.test(given) ? given : randomUUID()
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

/**
 * The service's address as the caller reached it, for links it hands out (a password reset link): NEXTAUTH_URL when
 * set (behind a reverse proxy), else the request's Host (Next's own request URL names its bind address instead).
 */
export function publicOrigin(req: Request): string {
  if (process.env.NEXTAUTH_URL) return process.env.NEXTAUTH_URL.replace(/\/+$/, '')
  const url = new URL(req.url)
  const host = req.headers.get('x-forwarded-host')?.split(',')[0].trim() || req.headers.get('host')
  const proto = req.headers.get('x-forwarded-proto')?.split(',')[0].trim() || url.protocol.replace(/:$/, '')
  return host ? `${proto}://${host}` : url.origin
}
