type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[] | undefined>> }) => Promise<Response>

export interface CallOptions {
  method?: string
  headers?: Record<string, string>
  /** An object is sent as JSON; a string, FormData or bytes are sent as they are. */
  body?: unknown
  params?: Record<string, string | string[]>
}

/** Calls a route handler the way Next does, with a real Request, and returns status, headers and the parsed body. */
export async function call(handler: Handler, path: string, options: CallOptions = {}) {
  const headers = new Headers(options.headers)
  let body: BodyInit | undefined
  if (options.body instanceof FormData || typeof options.body === 'string' || options.body instanceof Uint8Array) {
    body = options.body as BodyInit
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body)
    if (!headers.has('content-type')) headers.set('content-type', 'application/json')
  }
  const req = new Request(`http://localhost${path}`, { method: options.method ?? 'GET', headers, body })
  const res = await handler(req, { params: Promise.resolve(options.params ?? {}) })
  const text = await res.text()
  let json: any
  try {
    json = text ? JSON.parse(text) : undefined
  } catch {
    json = undefined
  }
  return { status: res.status, headers: res.headers, json, text }
}

export function expectErrorBody(json: any, code?: string) {
  if (!json?.error || typeof json.error.message !== 'string' || typeof json.error.code !== 'string') {
    throw new Error(`not the JSON error body: ${JSON.stringify(json)}`)
  }
  if (code && json.error.code !== code) throw new Error(`expected error code ${code}, got ${json.error.code}`)
}
