import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto'
import { authSecret } from '@/lib/auth/auth-secret'

// A signing secret must be recoverable to sign with it: it is stored encrypted (AES-256-GCM) under a key derived
// from NEXTAUTH_SECRET (HKDF-SHA256), never in clear, and returned only once, when the endpoint is created.

function key(): Buffer {
  return Buffer.from(hkdfSync('sha256', authSecret(), 'agent-datastore', 'webhook-signing-secrets', 32))
}

/** A new signing secret: "whsec_" and 32 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`
}

/** "v1.<iv>.<tag>.<ciphertext>", base64url parts. */
export function encryptSecret(secret: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key(), iv)
  const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()])
  return ['v1', iv, cipher.getAuthTag(), data].map(p => (typeof p === 'string' ? p : p.toString('base64url'))).join('.')
}

export function decryptSecret(stored: string): string {
  const [version, iv, tag, data] = stored.split('.')
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Unreadable webhook secret')
  const decipher = createDecipheriv('aes-256-gcm', key(), Buffer.from(iv, 'base64url'))
  decipher.setAuthTag(Buffer.from(tag, 'base64url'))
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8')
}

/** The signature header's value: `t=<timestamp>,v1=<hex HMAC-SHA256 of "<timestamp>.<body>">`. */
export function signatureHeader(secret: string, body: string, timestamp: number): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`
}

/** What a receiver does (README's recipe): recompute the HMAC and compare in constant time, within a tolerance. */
export function verifySignature(secret: string, body: string, header: string, options: { toleranceSeconds?: number; now?: number } = {}): boolean {
  const parts = Object.fromEntries(header.split(',').map(p => p.split('=', 2) as [string, string]))
  const timestamp = Number(parts.t)
  if (!Number.isInteger(timestamp) || !parts.v1) return false
  const now = options.now ?? Math.floor(Date.now() / 1000)
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? 300)) return false
  const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest()
  const given = Buffer.from(parts.v1, 'hex')
  return given.length === expected.length && timingSafeEqual(given, expected)
}
