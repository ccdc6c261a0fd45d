// A phase's sampling CPU profile (node:inspector) and its summary by category and by function.
import { Session } from 'node:inspector/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { frameCategory, isWasmFrame, type Category, type CpuProfile, type ProfileNode } from './categories'
import { ROOT } from './options'

export interface ProfileSummary {
  /** ms per category (idle included), over the whole profile. */
  ms: Record<string, number>
  totalMs: number
  busyMs: number
  /** The functions with the most self time: [category, function, file:line, ms]. */
  top: [string, string, string, number][]
}

export function summarizeProfile(profile: CpuProfile, topN = 15): ProfileSummary {
  const byId = new Map(profile.nodes.map(n => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const cache = new Map<number, Category>()
  const categoryOf = (id: number): Category => {
    const cached = cache.get(id)
    if (cached) return cached
    const leaf = byId.get(id)!
    const special: Record<string, Category> = { '(garbage collector)': 'gc', '(idle)': 'idle', '(program)': 'program', '(root)': 'runtime' }
    let category: Category | undefined = special[leaf.callFrame.functionName]
    if (!category) {
      let sawWasm = false
      for (let n: ProfileNode | undefined = leaf; n; n = byId.get(parent.get(n.id) ?? -1)) {
        if (isWasmFrame(n.callFrame)) {
          sawWasm = true
          continue
        }
        const c = frameCategory(n.callFrame.url, n.callFrame.functionName)
        if (c) {
          category = c === 'db-js' && sawWasm ? 'db-wasm' : c
          break
        }
      }
      category ??= sawWasm ? 'db-wasm' : 'runtime'
    }
    cache.set(id, category)
    return category
  }
  const ms: Record<string, number> = {}
  const self = new Map<number, number>()
  const { samples, timeDeltas } = profile
  for (let i = 0; i < samples.length; i++) {
    // the time until the next sample belongs to this one (as DevTools counts it); the last one is Profiler.stop's
    const d = i + 1 < samples.length ? Math.max(0, timeDeltas[i + 1]) / 1000 : 0
    const c = categoryOf(samples[i])
    ms[c] = (ms[c] ?? 0) + d
    self.set(samples[i], (self.get(samples[i]) ?? 0) + d)
  }
  const totalMs = Object.values(ms).reduce((a, b) => a + b, 0)
  const busyMs = totalMs - (ms.idle ?? 0)
  // self time by function
  const functions = new Map<string, [string, string, string, number]>()
  for (const [id, t] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame
    const where = url ? `${shortUrl(url)}:${lineNumber + 1}` : ''
    const key = `${functionName}@${where}`
    const entry = functions.get(key) ?? [categoryOf(id), functionName || '(anonymous)', where, 0]
    entry[3] += t
    functions.set(key, entry)
  }
  const top = [...functions.values()].filter(f => f[0] !== 'idle').sort((a, b) => b[3] - a[3]).slice(0, topN)
  return { ms, totalMs, busyMs, top }
}

function shortUrl(url: string): string {
  if (url.startsWith('wasm://')) return 'wasm'
  const file = url.startsWith('file://') ? fileURLToPath(url) : url
  const modules = file.lastIndexOf('/node_modules/')
  if (modules >= 0) return file.slice(modules + '/node_modules/'.length)
  return file.startsWith(ROOT + path.sep) ? file.slice(ROOT.length + 1) : file
}

const EMPTY_PROFILE: CpuProfile = { nodes: [], startTime: 0, endTime: 0, samples: [], timeDeltas: [] }

export async function profiled<T>(intervalUs: number | null, fn: () => Promise<T>): Promise<{ result: T; profile: CpuProfile }> {
  if (intervalUs === null) return { result: await fn(), profile: EMPTY_PROFILE }
  const session = new Session()
  session.connect()
  try {
    await session.post('Profiler.enable')
    await session.post('Profiler.setSamplingInterval', { interval: intervalUs })
    await session.post('Profiler.start')
    let result: T
    try {
      result = await fn()
    } catch (error) {
      await session.post('Profiler.stop').catch(() => {})
      throw error
    }
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: CpuProfile }
    return { result, profile }
  } finally {
    await session.post('Profiler.disable').catch(() => {})
    session.disconnect()
  }
}
