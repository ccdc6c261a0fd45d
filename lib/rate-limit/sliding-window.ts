// An in-memory sliding-window rate limiter: at most `limit` hits per key within the last `windowMs`.
// Per process: behind a load balancer each web process counts on its own, which is acceptable for its purpose
// (keeping an anonymous caller of a public agent from burning the organization's model budget).

export interface RateDecision {
  allowed: boolean
  /** Whole seconds until the oldest hit in the window expires (0 when allowed). */
  retryAfterSeconds: number
}

export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>()
  private lastSweep = 0

  constructor(private readonly windowMs: number) {}

  /** Counts a hit for every key, or for none of them when any key is over its limit. */
  hit(keys: string[], limit: number, now = Date.now()): RateDecision {
    this.sweep(now)
    let retryAfterMs = 0
    const windows = keys.map(key => {
      const recent = (this.hits.get(key) ?? []).filter(t => t > now - this.windowMs)
      if (recent.length >= limit) retryAfterMs = Math.max(retryAfterMs, recent[recent.length - limit] + this.windowMs - now)
      return [key, recent] as const
    })
    if (retryAfterMs > 0) {
      for (const [key, recent] of windows) this.hits.set(key, recent)
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) }
    }
    for (const [key, recent] of windows) this.hits.set(key, [...recent, now])
    return { allowed: true, retryAfterSeconds: 0 }
  }

  reset(): void {
    this.hits.clear()
  }

  // forget keys whose every hit has expired, so the map does not grow with every visitor ever seen
  private sweep(now: number) {
    if (now - this.lastSweep < this.windowMs) return
    this.lastSweep = now
    for (const [key, times] of this.hits) {
      if (!times.some(t => t > now - this.windowMs)) this.hits.delete(key)
    }
  }
}
