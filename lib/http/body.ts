import { z, type ZodType } from 'zod'
import { config } from '@/lib/config'
import { InvalidRequest, PayloadTooLarge, UnsupportedMediaType } from './errors'
import { streamMultipart } from './multipart'
import { zodIssues } from './route'

/** The request's media type, lower case, without parameters. */
export function mediaType(req: Request): string | null {
  return req.headers.get('content-type')?.split(';')[0].trim().toLowerCase() || null
}

function isJsonMediaType(type: string | null) {
  return type === 'application/json' || (type?.startsWith('application/') && type.endsWith('+json')) === true
}

export function bodyLimitBytes(): number {
  return config().LIMIT_BODY_SIZE_MB * 1024 * 1024
}

/** Reads the whole body, refusing (413) as soon as it passes `limit` bytes, whatever Content-Length claimed. */
export async function readBodyBytes(req: Request, limit = bodyLimitBytes()): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(req.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit)
  if (!req.body) return new Uint8Array(new ArrayBuffer(0))
  const reader = req.body.getReader()
  const parts: Uint8Array[] = []
  let size = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > limit) {
        await reader.cancel().catch(() => {})
        throw tooLarge(limit)
      }
      parts.push(value)
    }
  } catch (error) {
    if (error instanceof PayloadTooLarge) throw error
    throw new InvalidRequest('The request body could not be read to its end')
  }
  const body = new Uint8Array(new ArrayBuffer(size))
  let offset = 0
  for (const part of parts) {
    body.set(part, offset)
    offset += part.byteLength
  }
  return body
}

function tooLarge(limit: number) {
  return new PayloadTooLarge(`The request body is larger than ${Math.round(limit / 1024 / 1024)} MB`, { limitBytes: limit })
}

export function validate<T>(schema: ZodType<T>, value: unknown, what = 'body'): T {
  const parsed = schema.safeParse(value)
  if (!parsed.success) throw new InvalidRequest(`Invalid ${what}`, zodIssues(parsed.error))
  return parsed.data
}

// A NUL character can only reach JSON text as the escape \u0000 (raw control characters are invalid JSON); an even
// run of backslashes before it means the backslash itself was escaped ("\\u0000" is text, not NUL)
const NUL_ESCAPE = /(?:^|[^\\])(?:\\\\)*\\u0000/

/** Where the first string (or key) holding NUL is in a parsed JSON value, walked without recursion. */
function pathOfNul(value: unknown): string {
  const stack: [unknown, string][] = [[value, '']]
  while (stack.length > 0) {
    const [node, at] = stack.pop()!
    if (typeof node === 'string' && node.includes('\u0000')) return at
    if (node && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        const path = at ? `${at}.${key}` : key
        if (key.includes('\u0000')) return path
        stack.push([child, path])
      }
    }
  }
  return ''
}

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/

/**
 * Replaces lone surrogates (an unpaired "\ud800" escape) with U+FFFD in every string and key, as UTF-8 text columns
 * store them anyway; left in place, PostgreSQL's jsonb refuses them (a 500). Walked without recursion.
 */
function withWellFormedStrings(value: unknown): unknown {
  const fix = (s: string) => (s.isWellFormed() ? s : s.toWellFormed())
  if (typeof value === 'string') return fix(value)
  const stack: Record<string, unknown>[] = value && typeof value === 'object' ? [value as Record<string, unknown>] : []
  while (stack.length > 0) {
    const node = stack.pop()!
    for (const key of Object.keys(node)) {
      const child = node[key]
      const name = fix(key)
      if (name !== key) {
        delete node[key]
        node[name] = child
      }
      if (typeof child === 'string') node[name] = fix(child)
      else if (child && typeof child === 'object') stack.push(child as Record<string, unknown>)
    }
  }
  return value
}

/** Nesting no request needs; deeper values would overflow recursive code further on (Prisma, jsonb) as a 500. */
export const MAX_JSON_DEPTH = 100

/** The path of the first value nested deeper than MAX_JSON_DEPTH, or null; walked without recursion. */
function tooDeep(value: unknown): string | null {
  const stack: [unknown, string, number][] = [[value, '', 0]]
  while (stack.length > 0) {
    const [node, at, depth] = stack.pop()!
    if (!node || typeof node !== 'object') continue
    if (depth >= MAX_JSON_DEPTH) return at
    for (const [key, child] of Object.entries(node)) if (child && typeof child === 'object') stack.push([child, at ? `${at}.${key}` : key, depth + 1])
  }
  return null
}

/**
 * JSON text parsed; 400 when malformed, when a string holds NUL (\u0000), which PostgreSQL text and jsonb cannot
 * store, or when nested deeper than MAX_JSON_DEPTH: refused here rather than failing further on as a 500.
 */
function parseJsonText(text: string): unknown {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new InvalidRequest('The request body is not valid JSON')
  }
  if (NUL_ESCAPE.test(text)) {
    const path = pathOfNul(value)
    throw new InvalidRequest('Text in the request body must not contain NUL characters (\\u0000)', [
      { path, message: 'must not contain NUL characters', code: 'invalid_format' },
    ])
  }
  if (SURROGATE_ESCAPE.test(text)) value = withWellFormedStrings(value)
  const deep = tooDeep(value)
  if (deep !== null) {
    throw new InvalidRequest(`The request body is nested more than ${MAX_JSON_DEPTH} levels deep`, [
      { path: deep, message: `nested more than ${MAX_JSON_DEPTH} levels deep`, code: 'too_big' },
    ])
  }
  return value
}

/** A JSON body validated by `schema`: 415 for another content type, 413 when too large, 400 when malformed or invalid. */
export async function parseJson<T>(req: Request, schema: ZodType<T>): Promise<T> {
  const type = mediaType(req)
  if (!isJsonMediaType(type)) throw new UnsupportedMediaType(['application/json'], type)
  const bytes = await readBodyBytes(req)
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new InvalidRequest('The request body is not valid JSON')
  }
  return validate(schema, parseJsonText(text))
}

/** For bodies that may be absent (DELETE with `{}`): an empty or missing body is fine, anything else must be JSON. */
export async function parseOptionalJson<T>(req: Request, schema: ZodType<T>): Promise<T> {
  const declared = req.headers.get('content-length')
  if (!req.body || declared === '0') return validate(schema, {})
  const bytes = await readBodyBytes(req)
  if (bytes.byteLength === 0) return validate(schema, {})
  const type = mediaType(req)
  if (!isJsonMediaType(type)) throw new UnsupportedMediaType(['application/json'], type)
  return validate(schema, parseJsonText(new TextDecoder().decode(bytes)))
}

/**
 * A multipart/form-data body: 415 for another content type, 413 past `limitBytes`, 400 when truncated or malformed.
 * Its files are streamed to disk as they arrive (lib/http/multipart.ts); disposeForm() removes them.
 */
export async function parseMultipart(req: Request, limitBytes: number): Promise<FormData> {
  const type = mediaType(req)
  if (type !== 'multipart/form-data') throw new UnsupportedMediaType(['multipart/form-data'], type)
  const declared = Number(req.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > limitBytes) throw tooLarge(limitBytes)
  if (!req.body) throw new InvalidRequest('The multipart body is malformed or truncated')
  return streamMultipart(req.body, req.headers.get('content-type')!, limitBytes)
}

// Control characters (NUL above all, which PostgreSQL text cannot hold) have no place in an id or a parameter
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/

/** URL search parameters validated by `schema` (400 naming the parameter); control characters are refused. */
export function parseSearchParams<T>(req: Request, schema: ZodType<T>): T {
  const params = Object.fromEntries(new URL(req.url).searchParams)
  const bad = Object.entries(params).find(([key, value]) => !NO_CONTROL_CHARACTERS.test(key) || !NO_CONTROL_CHARACTERS.test(value))
  if (bad) {
    throw new InvalidRequest('Invalid query parameters', [{ path: bad[0], message: 'must not contain control characters', code: 'invalid_format' }])
  }
  return validate(schema, params, 'query parameters')
}

/** Path segments: ids are opaque, but an absurd one (too long, control characters) is a bad request, not a database query. */
export const IdParam = z.string().trim().min(1).max(128).regex(NO_CONTROL_CHARACTERS, 'must not contain control characters')

export async function parseId(params: Promise<Record<string, string | string[] | undefined>>, name = 'id'): Promise<string> {
  return validate(IdParam, (await params)[name], `path parameter "${name}"`)
}
