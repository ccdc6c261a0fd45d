import { config } from '@/lib/config'

// Requests in flight per host name, in this process, and who waits for a slot
const active = new Map<string, number>()
const waiting = new Map<string, (() => void)[]>()

/** Runs fn once fewer than CRAWLER_CONCURRENCY_PER_HOST requests to `host` are in flight (politeness to sites). */
export async function withHostSlot<T>(host: string, fn: () => Promise<T>): Promise<T> {
  const limit = config().CRAWLER_CONCURRENCY_PER_HOST
  while ((active.get(host) ?? 0) >= limit) {
    await new Promise<void>(resolve => waiting.set(host, [...(waiting.get(host) ?? []), resolve]))
  }
  active.set(host, (active.get(host) ?? 0) + 1)
  try {
    return await fn()
  } finally {
    const left = (active.get(host) ?? 1) - 1
    if (left === 0) active.delete(host)
    else active.set(host, left)
    const queue = waiting.get(host)
    const next = queue?.shift()
    if (queue && queue.length === 0) waiting.delete(host)
    next?.()
  }
}
