import { z, type ZodType } from 'zod'
import { config } from '@/lib/config'
import { InvalidRequest, PayloadTooLarge, UnsupportedMediaType } from './errors'
import { zodIssues } from './route'

function mediaType(req: Request): string | null {
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

/** A JSON body validated by `schema`: 415 for another content type, 413 when too large, 400 when malformed or invalid. */
export async function parseJson<T>(req: Request, schema: ZodType<T>): Promise<T> {
  const type = mediaType(req)
  if (!isJsonMediaType(type)) throw new UnsupportedMediaType(['application/json'], type)
  const bytes = await readBodyBytes(req)
  let value: unknown
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    throw new InvalidRequest('The request body is not valid JSON')
  }
  return validate(schema, value)
}

/** For bodies that may be absent (DELETE with `{}`): an empty or missing body is fine, anything else must be JSON. */
export async function parseOptionalJson<T>(req: Request, schema: ZodType<T>): Promise<T> {
  const declared = req.headers.get('content-length')
  if (!req.body || declared === '0') return validate(schema, {})
  const bytes = await readBodyBytes(req)
  if (bytes.byteLength === 0) return validate(schema, {})
  const type = mediaType(req)
  if (!isJsonMediaType(type)) throw new UnsupportedMediaType(['application/json'], type)
  try {
    return validate(schema, JSON.parse(new TextDecoder().decode(bytes)))
  } catch (error) {
    if (error instanceof InvalidRequest) throw error
    throw new InvalidRequest('The request body is not valid JSON')
  }
}

/** A multipart/form-data body: 415 for another content type, 413 past `limitBytes`, 400 when truncated or malformed. */
export async function parseMultipart(req: Request, limitBytes: number): Promise<FormData> {
  const type = mediaType(req)
  if (type !== 'multipart/form-data') throw new UnsupportedMediaType(['multipart/form-data'], type)
  const bytes = await readBodyBytes(req, limitBytes)
  try {
    return await new Response(bytes, { headers: { 'content-type': req.headers.get('content-type')! } }).formData()
  } catch {
    throw new InvalidRequest('The multipart body is malformed or truncated')
  }
}

/** URL search parameters validated by `schema` (400 naming the parameter). */
export function parseSearchParams<T>(req: Request, schema: ZodType<T>): T {
  const params = Object.fromEntries(new URL(req.url).searchParams)
  return validate(schema, params, 'query parameters')
}

/** Path segments: ids are opaque, but an absurd one is a bad request, not a database query. */
export const IdParam = z.string().min(1).max(128)

export async function parseId(params: Promise<Record<string, string | string[] | undefined>>, name = 'id'): Promise<string> {
  return validate(IdParam, (await params)[name], `path parameter "${name}"`)
}
