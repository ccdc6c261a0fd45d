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

const UNREACHABLE = 'Could not reach the server. Check your connection and try again.'

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
    throw new ApiError(UNREACHABLE, 0, 'network_error')
  }

  const data = parseJson(await res.text())
  if (!res.ok) throw apiErrorOf(data, res.status, `Request failed with status ${res.status}${res.statusText ? ` (${res.statusText})` : ''}`)
  return data as T
}

/**
 * POSTs `form` (multipart/form-data) to `path` with XMLHttpRequest, as fetch reports no upload progress: `onProgress`
 * gets 0..1 as the bytes go out. Resolves with the parsed JSON; rejects with ApiError like apiFetch.
 */
export function apiUpload<T>(
  path: string,
  form: FormData,
  { onProgress, signal }: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', path)
    xhr.setRequestHeader('accept', 'application/json')
    xhr.upload.onprogress = e => {
      if (e.lengthComputable) onProgress?.(e.loaded / e.total)
    }
    xhr.onload = () => {
      const data = parseJson(xhr.responseText)
      if (xhr.status < 200 || xhr.status >= 300) return reject(apiErrorOf(data, xhr.status, `Upload failed with status ${xhr.status}`))
      if (data === undefined) return reject(new ApiError('The server answered with something other than JSON', xhr.status))
      onProgress?.(1)
      resolve(data as T)
    }
    xhr.onerror = () => reject(new ApiError(UNREACHABLE, 0, 'network_error'))
    xhr.onabort = () => reject(new ApiError('Upload cancelled', 0, 'aborted'))
    signal?.addEventListener('abort', () => xhr.abort(), { once: true })
    xhr.send(form)
  })
}

/** A body's JSON, or undefined when it is empty or not JSON. */
function parseJson(text: string): unknown {
  if (!text) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The ApiError of a non-2xx answer whose body is `data`; `fallback` when the body carries no message. */
function apiErrorOf(data: unknown, status: number, fallback: string): ApiError {
  const error = (data as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error
  return new ApiError(error?.message || fallback, status, error?.code, error?.details)
}

/** The message to show for any error thrown by a query or mutation. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message
  return 'Something went wrong'
}
