import fs from 'node:fs'
import path from 'node:path'

export interface Measured<T> {
  value: T
  ms: number
  /** Highest RSS seen while fn ran, above the RSS before it, in MB. */
  rssGrowthMb: number
}

/** Runs fn, sampling the process's RSS every 20 ms (and at the end). */
export async function measure<T>(fn: () => Promise<T>): Promise<Measured<T>> {
  global.gc?.()
  const start = process.memoryUsage.rss()
  let peak = start
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, 20)
  const began = performance.now()
  try {
    const value = await fn()
    peak = Math.max(peak, process.memoryUsage.rss())
    return { value, ms: Math.round(performance.now() - began), rssGrowthMb: Math.round((peak - start) / 1024 / 1024) }
  } finally {
    clearInterval(timer)
  }
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((x, y) => x - y)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}

/** Adds figures to test-results/<name>.json (read by docs/reliability.md's author). */
export function saveFigures(name: string, figures: Record<string, unknown>) {
  const dir = path.resolve(import.meta.dirname, '../../../test-results')
  fs.mkdirSync(dir, { recursive: true })
  const file = path.join(dir, `${name}.json`)
  let previous: Record<string, unknown> = {}
  try {
    previous = JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch {}
  fs.writeFileSync(file, JSON.stringify({ ...previous, ...figures }, null, 2))
}
