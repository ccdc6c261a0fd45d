// The few kinds of failure a request can meet. toErrorResponse() (lib/http/route.ts) maps them to HTTP in one place
// (DESIGN.md §4).

export type ErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'not_found'
  | 'method_not_allowed'
  | 'usage_limit_reached'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'overloaded'
  | 'origin_not_allowed'
  | 'visitor_not_verified'
  | 'forbidden'
  | 'upstream_unavailable'
  | 'conflict'
  | 'internal_error'

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = new.target.name
  }
}

export class InvalidRequest extends ApiError {
  constructor(message = 'The request is invalid', details?: unknown) {
    super(400, 'invalid_request', message, details)
  }
}

export class Unauthorized extends ApiError {
  constructor(message = 'A valid API key is required: send "Authorization: Bearer <key>"') {
    super(401, 'unauthorized', message)
  }
}

export class NotFound extends ApiError {
  constructor(resource = 'Resource') {
    super(404, 'not_found', `${resource} not found`)
  }
}

export class MethodNotAllowed extends ApiError {
  constructor(method: string, allowed: string[]) {
    super(405, 'method_not_allowed', `Method ${method} is not allowed here; use ${allowed.join(', ')}`, { allowed }, {
      Allow: allowed.join(', '),
    })
  }
}

export class PaymentRequired extends ApiError {
  constructor(limit: string, message: string) {
    super(402, 'usage_limit_reached', message, { limit })
  }
}

export class PayloadTooLarge extends ApiError {
  constructor(message: string, details?: unknown) {
    super(413, 'payload_too_large', message, details)
  }
}

export class UnsupportedMediaType extends ApiError {
  constructor(accepted: string[], received?: string | null) {
    super(
      415,
      'unsupported_media_type',
      `Unsupported content type${received ? ` "${received}"` : ''}; accepted: ${accepted.join(', ')}`,
      { accepted },
    )
  }
}

export class RateLimited extends ApiError {
  constructor(retryAfterSeconds: number) {
    super(429, 'rate_limited', `Too many requests; retry in ${retryAfterSeconds} s`, { retryAfter: retryAfterSeconds }, {
      'Retry-After': String(retryAfterSeconds),
    })
  }
}

/**
 * The caller may not do this: a member whose role, or a key whose scopes, do not allow it (`forbidden`); a public
 * agent refusing a page of a site outside its allow-list, or a visitor without a valid signature where one is
 * required. 403, with the reason as the code.
 */
export class Forbidden extends ApiError {
  constructor(code: 'forbidden' | 'origin_not_allowed' | 'visitor_not_verified', message: string, details?: unknown) {
    super(403, code, message, details)
  }
}

/** A provider the service depends on failed: 503, or 502 / 504 for the model errors of lib/domain/errors.ts. */
export class UpstreamUnavailable extends ApiError {
  constructor(message: string, status = 503) {
    super(status, 'upstream_unavailable', message)
  }
}

/**
 * The request is valid but the resource's state refuses it (issue 24): an invitation already accepted or expired,
 * the organization's last owner removed or demoted. 409.
 */
export class Conflict extends ApiError {
  constructor(message: string, details?: unknown) {
    super(409, 'conflict', message, details)
  }
}
