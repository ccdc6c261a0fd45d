// The dashboard's only way to the server: same-origin calls to /api, authorized by the session cookie.

/** An error answered by the API: `{"error": {"code", "message", "details"}}`. */
export class ApiError extends Error {
  readonly status: number
  readonly code: string | undefined
  readonly details: unknown

  constructor(message: string, status: number, code?: string, details?: unknown) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.details = details
  }
}

export type ApiFetchInit = Omit<RequestInit, 'body'> & {
  /** a value sent as a JSON body */
  json?: unknown
  /** a raw body (FormData, Blob, …) sent as is */
  body?: BodyInit | null
}

/** Fetches `path` (e.g. `/api/api-keys`) and returns its parsed JSON; throws ApiError on a non-2xx answer. */
export async function apiFetch<T>(path: string, init: ApiFetchInit = {}): Promise<T> {
  const { json, headers: givenHeaders, ...rest } = init
  const headers = new Headers(givenHeaders)
  headers.set('accept', 'application/json')
  let body = rest.body
  if (json !== undefined) {
    headers.set('content-type', 'application/json')
    body = JSON.stringify(json)
  }

  let res: Response
  try {
    res = await fetch(path, { credentials: 'same-origin', ...rest, headers, body })
  } catch {
    throw new ApiError('Could not reach the server. Check your connection and try again.', 0, 'network_error')
  }

  const text = await res.text()
  let data: unknown = undefined
  if (text) {
    try {
      data = JSON.parse(text)
    } catch {
      data = undefined
    }
  }

  if (!res.ok) {
    const error = (data as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error
    const message = error?.message || `Request failed with status ${res.status}${res.statusText ? ` (${res.statusText})` : ''}`
    throw new ApiError(message, res.status, error?.code, error?.details)
  }
  return data as T
}

/** The message to show for any error thrown by a query or mutation. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message
  return 'Something went wrong'
}
