import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

// Webhook signatures: a signing secret per endpoint (stored encrypted by lib/crypto/secrets.ts, shown once), and
// the header a receiver checks.

/** A new signing secret: "whsec_" and 32 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`
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
