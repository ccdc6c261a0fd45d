import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { config, dataDir } from '@/lib/config'

let cached: string | undefined

/**
 * The key that signs dashboard sessions: NEXTAUTH_SECRET, else one generated once into DATA_DIR so sessions survive
 * restarts. Several app processes (Postgres mode) must share NEXTAUTH_SECRET.
 */
export function authSecret(): string {
  const fromEnv = config().NEXTAUTH_SECRET
  if (fromEnv) return fromEnv
  if (cached) return cached
  const file = path.join(dataDir(), 'nextauth-secret')
  try {
    cached = fs.readFileSync(file, 'utf8').trim()
  } catch {
    fs.mkdirSync(dataDir(), { recursive: true })
    const secret = randomBytes(32).toString('base64url')
    try {
      fs.writeFileSync(file, secret, { flag: 'wx', mode: 0o600 })
      cached = secret
    } catch {
      cached = fs.readFileSync(file, 'utf8').trim()
    }
  }
  return cached
}
