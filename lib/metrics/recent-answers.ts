// The last answers' durations in this process, by organization (issue 27): the System page's "model latency" is
// their p50 and p95 over the last hour. Prometheus has the histogram; this is for a team without one, and small: a
// ring of the latest RING_SIZE answers, kept on globalThis (the routes and the pages are separate bundles).

const RING_SIZE = 2000

interface AnswerTiming {
  organizationId: string
  at: number
  ms: number
}

const holder = globalThis as typeof globalThis & { __adsRecentAnswers?: { ring: AnswerTiming[]; next: number } }
const state = (holder.__adsRecentAnswers ??= { ring: [], next: 0 })

export function recordAnswerTiming(organizationId: string, seconds: number): void {
  const entry = { organizationId, at: Date.now(), ms: seconds * 1000 }
  if (state.ring.length < RING_SIZE) state.ring.push(entry)
  else state.ring[state.next] = entry
  state.next = (state.next + 1) % RING_SIZE
}

/** A percentile of sorted values by the nearest-rank method. */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}

export function answerLatency(organizationId: string, windowMs: number): { answers: number; p50Ms: number | null; p95Ms: number | null } {
  const since = Date.now() - windowMs
  const ms = state.ring.filter(e => e.organizationId === organizationId && e.at >= since).map(e => e.ms).sort((a, b) => a - b)
  if (ms.length === 0) return { answers: 0, p50Ms: null, p95Ms: null }
  return { answers: ms.length, p50Ms: Math.round(percentile(ms, 50)), p95Ms: Math.round(percentile(ms, 95)) }
}
