import { config } from '@/lib/config'
import { RateLimited } from '@/lib/http/errors'
import { SlidingWindowLimiter } from './sliding-window'

// Queries of public agents by callers outside the agent's organization: LIMIT_PUBLIC_QUERIES_PER_MINUTE per visitor
// and per client address. One limiter per process, on globalThis so that Next's double module load shares it.
const holder = globalThis as unknown as { __publicQueryLimiter?: SlidingWindowLimiter }
function limiter() {
  return (holder.__publicQueryLimiter ??= new SlidingWindowLimiter(60_000))
}

/**
 * The caller's address: the last entry of X-Forwarded-For. scripts/serve.mjs (what `npm start` runs) sets that header
 * from the socket, dropping a client-sent one, or with TRUST_PROXY=1 leaves the header of the reverse proxy in front,
 * whose last entry is the one it appended; earlier entries are whatever the client sent, so they are not trusted.
 * Else X-Real-IP; else every anonymous caller shares one bucket, erring on the side of limiting.
 */
export function clientAddress(req: Request): string {
  const forwarded = req.headers.get('x-forwarded-for')?.split(',').at(-1)?.trim()
  return (forwarded || req.headers.get('x-real-ip')?.trim() || 'unknown').slice(0, 64)
}

/** Throws RateLimited (429 with Retry-After) when this visitor or this address has used up its minute. */
export function limitPublicQuery(req: Request, visitorId: string | undefined): void {
  const keys = [`ip:${clientAddress(req)}`]
  if (visitorId) keys.push(`visitor:${visitorId}`)
  const decision = limiter().hit(keys, config().LIMIT_PUBLIC_QUERIES_PER_MINUTE)
  if (!decision.allowed) throw new RateLimited(decision.retryAfterSeconds)
}

/** Tests: forget every counted hit. */
export function resetPublicQueryLimits(): void {
  limiter().reset()
}
