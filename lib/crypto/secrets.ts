import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'
import { authSecret } from '@/lib/auth/auth-secret'

// Secrets the service must be able to use again (webhook signing secrets, visitor signing secrets, connection tokens,
// tool headers) are stored encrypted: AES-256-GCM under a key derived from NEXTAUTH_SECRET (HKDF-SHA256), never in
// clear. What is only compared (API keys, passwords) is hashed instead, elsewhere.

function key(): Buffer {
  // the derivation's salt and info are those the first encrypted secrets (webhook signing secrets) were stored under
  return Buffer.from(hkdfSync('sha256', authSecret(), 'agent-datastore', 'webhook-signing-secrets', 32))
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
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Unreadable encrypted secret')
  const decipher = createDecipheriv('aes-256-gcm', key(), Buffer.from(iv, 'base64url'))
  decipher.setAuthTag(Buffer.from(tag, 'base64url'))
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8')
}
