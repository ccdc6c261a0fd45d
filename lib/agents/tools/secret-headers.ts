import { z } from 'zod'
import { MASKED_SECRET } from '@/lib/domain/agent-tools'
import { InvalidRequest } from '@/lib/http/errors'
import { decryptSecret, encryptSecret } from '@/lib/webhooks/secret'

// A tool's headers carry credentials (an API key, a bearer token): their values are encrypted at rest, answered
// masked, and kept when a PATCH sends the mask (or leaves the headers out) instead of a new value.

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/
const FORBIDDEN = new Set(['host', 'content-length', 'transfer-encoding', 'connection'])

export const HeadersBody = z
  .record(
    z.string().regex(HEADER_NAME, 'not a header name').refine(n => !FORBIDDEN.has(n.toLowerCase()), 'this header is set by the service'),
    z.string().max(4000).regex(/^[^\r\n\0]*$/, 'a header value cannot hold a line break'),
  )
  .refine(h => Object.keys(h).length <= 20, 'at most 20 headers')

/** Stored: name → AES-GCM ciphertext. */
export type StoredHeaders = Record<string, string>

/** The headers to store: new values encrypted, masked ones (or all, when none are given) kept from `previous`. */
export function storeHeaders(given: Record<string, string> | undefined, previous: StoredHeaders | undefined, where: string): StoredHeaders {
  if (given === undefined) return previous ?? {}
  return Object.fromEntries(
    Object.entries(given).map(([name, value]) => {
      if (value !== MASKED_SECRET) return [name, encryptSecret(value)]
      const kept = previous?.[name]
      if (!kept) throw new InvalidRequest(`${where}: header "${name}" has no stored value to keep; send its value`)
      return [name, kept]
    }),
  )
}

export function maskHeaders(stored: StoredHeaders): Record<string, typeof MASKED_SECRET> {
  return Object.fromEntries(Object.keys(stored).map(name => [name, MASKED_SECRET]))
}

export function revealHeaders(stored: StoredHeaders): Record<string, string> {
  return Object.fromEntries(Object.entries(stored).map(([name, value]) => [name, decryptSecret(value)]))
}
