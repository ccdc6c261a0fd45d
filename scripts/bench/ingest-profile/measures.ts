// The figures the run's and the compare's tables show, derived from a run's result.
import type { PhaseCost } from './cpu'
import type { ProfileSummary } from './profile'
import type { ProfileResult } from './result'
import type { StatementStat } from './statements'

export const embeddingsOf = (r: ProfileResult) =>
  r.options.noEmbeddings ? 'no embeddings: full-text mode' : '1536-dimension embeddings from the local fake server'

export const f = (x: number, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : '–')
export const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length

/**
 * A phase's main-thread CPU per category: the profile's shares applied to the main thread's measured CPU. The
 * sampler counts wall time while the thread is not idle, which includes time the OS gave other processes; scaling
 * assumes that time fell evenly on the categories. Without /proc (not Linux), the profiled time itself.
 */
export function categoryCpuMs(phase: PhaseCost & { profile: ProfileSummary }, key: string): number {
  const scale = Number.isFinite(phase.mainThreadMs) && phase.profile.busyMs > 0 ? phase.mainThreadMs / phase.profile.busyMs : 1
  return (phase.profile.ms[key] ?? 0) * scale
}

/**
 * The time inside PostgreSQL of the phase's statements that `match`, as CPU: their wall time (synchronous calls on
 * the main thread) scaled like the profile's categories, by the main thread's CPU over its busy wall time, which
 * takes out the time a loaded machine gave other processes meanwhile.
 */
export function statementCpuMs(phase: PhaseCost & { profile: ProfileSummary; statements?: StatementStat[] }, match: (sql: string) => boolean = () => true): number {
  const scale = Number.isFinite(phase.mainThreadMs) && phase.profile.busyMs > 0 ? Math.min(1, phase.mainThreadMs / phase.profile.busyMs) : 1
  return (phase.statements ?? []).filter(x => match(x.sql)).reduce((n, x) => n + x.ms, 0) * scale
}

export function sqlDeltas(result: ProfileResult): { key: string; label: string; attributed: string; cpuPerChunk: number; wallPerChunk: number; deltaCpu: number }[] {
  if (!result.sql) return []
  let previous = 0
  return result.sql.variants.map(v => {
    const cpuPerChunk = mean(v.cpuMs) / result.sql!.rows
    const wallPerChunk = mean(v.wallMs) / result.sql!.rows
    const deltaCpu = cpuPerChunk - previous
    previous = cpuPerChunk
    return { key: v.key, label: v.label, attributed: v.attributed, cpuPerChunk, wallPerChunk, deltaCpu }
  })
}
