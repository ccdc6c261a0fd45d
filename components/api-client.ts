// The dashboard's only way to the server: same-origin calls to /api, authorized by the session cookie. Calls name an
// endpoint as its route file declares it ("GET /api/datastores/{id}"): the path, the parameters, the body and the
// answer's type all come from that declaration (app/api/registry.ts, imported for its types only).
import type { z } from 'zod'
import type { ApiContract } from '@/app/api/registry'

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

type Api = { [C in ApiContract as `${C['method']} ${C['path']}`]: C }
/** An endpoint of the API, as "METHOD /path/{param}". */
export type Endpoint = keyof Api

type ParamNames<P> = P extends `${string}{${infer N}}${infer Rest}` ? N | ParamNames<Rest> : never
type Present<S> = [NonNullable<S>] extends [never] ? false : NonNullable<S> extends z.ZodType ? true : false
type Input<S> = NonNullable<S> extends z.ZodType ? z.input<NonNullable<S>> : never

/** What a call of endpoint K sends: its path parameters, query parameters and JSON body, as declared. */
export type RequestOf<K extends Endpoint> = ([ParamNames<Api[K]['path']>] extends [never] ? unknown : { params: Record<ParamNames<Api[K]['path']>, string> }) &
  (Present<Api[K]['query']> extends true ? { query?: Input<Api[K]['query']> } : unknown) &
  (Present<Api[K]['body']> extends true ? { body: Input<Api[K]['body']> } : unknown) & { signal?: AbortSignal; credentials?: RequestCredentials }

/** What endpoint K answers on success, as declared. */
export type ResponseOf<K extends Endpoint> = Present<Api[K]['response']> extends true ? z.output<NonNullable<Api[K]['response']>> : never

/** The URL of a call: the path's parameters filled in, the query parameters that have a value appended. */
export function apiUrl<K extends Endpoint>(endpoint: K, request: RequestOf<K>): string {
  const { params = {}, query = {} } = request as { params?: Record<string, string>; query?: Record<string, unknown> }
  const path = endpoint.slice(endpoint.indexOf(' ') + 1).replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]))
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== '') search.set(key, String(value))
  return search.size ? `${path}?${search}` : path
}

/** Calls an endpoint with its declared inputs; resolves with its declared answer, throws ApiError otherwise. */
export function api<K extends Endpoint>(endpoint: K, ...[request]: {} extends RequestOf<K> ? [RequestOf<K>?] : [RequestOf<K>]): Promise<ResponseOf<K>> {
  const given = (request ?? {}) as RequestOf<K> & { body?: unknown }
  const method = endpoint.slice(0, endpoint.indexOf(' '))
  return apiFetch(apiUrl(endpoint, given), { method, json: given.body, signal: given.signal, credentials: given.credentials })
}
