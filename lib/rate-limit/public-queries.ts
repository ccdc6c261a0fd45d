import { metrics } from '@/lib/metrics/registry'
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
 * Throws RateLimited (429 with Retry-After) when this visitor or this address has used up its minute. The address
 * is the edge's (clientAddress() in lib/http/route.ts).
 */
export function limitPublicQuery(clientAddress: string, visitorId: string | undefined): void {
  const keys = [`ip:${clientAddress}`]
  if (visitorId) keys.push(`visitor:${visitorId}`)
  const decision = limiter().hit(keys, config().LIMIT_PUBLIC_QUERIES_PER_MINUTE)
  if (!decision.allowed) {
    metrics().rateLimitRefusals.inc({ limit: 'public_queries' })
    throw new RateLimited(decision.retryAfterSeconds)
  }
}

/** Tests: forget every counted hit. */
export function resetPublicQueryLimits(): void {
  limiter().reset()
}
