import { MASKED_SECRET } from '@/lib/domain/agent-tools'
import { InvalidRequest } from '@/lib/http/errors'
import { decryptSecret, encryptSecret } from '@/lib/crypto/secrets'

// A tool's headers carry credentials (an API key, a bearer token): their values are encrypted at rest, answered
// masked, and kept when a PATCH sends the mask (or leaves the headers out) instead of a new value.


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
