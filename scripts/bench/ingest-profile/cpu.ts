// CPU measures of a phase: the process (every thread), its main thread, and each thread by name (Linux /proc).
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  } catch {
    return 100
  }
})()

/** CPU time in ms of each thread of this process by thread name (Linux; the main thread as "main"), or null. */
function threadCpuMs(): Map<string, number> | null {
  try {
    const out = new Map<string, number>()
    for (const tid of fs.readdirSync('/proc/self/task')) {
      try {
        const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
        const name = Number(tid) === process.pid ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).trim()
        out.set(name, (out.get(name) ?? 0) + ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS)
      } catch {
        // the thread ended
      }
    }
    return out
  } catch {
    return null
  }
}

/** The main thread's CPU time in ms, to the nanosecond (Linux schedstat), or NaN. */
function mainThreadCpuMs(): number {
  try {
    return Number(fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6
  } catch {
    return NaN
  }
}

export interface CpuMark { wall: number; cpu: NodeJS.CpuUsage; main: number; threads: Map<string, number> | null }
export const mark = (): CpuMark => ({ wall: performance.now(), cpu: process.cpuUsage(), main: mainThreadCpuMs(), threads: threadCpuMs() })

export interface PhaseCost {
  wallMs: number
  /** Every thread of the process. */
  cpuMs: number
  userMs: number
  systemMs: number
  mainThreadMs: number
  /** CPU ms by thread name (Linux, /proc/self/task/N/stat; resolution one clock tick, 10 ms); the main thread as "main". */
  threads: Record<string, number>
}

export function since(start: CpuMark): PhaseCost {
  const end = mark()
  const cpu = process.cpuUsage(start.cpu)
  return {
    wallMs: end.wall - start.wall,
    cpuMs: (cpu.user + cpu.system) / 1000,
    userMs: cpu.user / 1000,
    systemMs: cpu.system / 1000,
    mainThreadMs: Number.isFinite(end.main - start.main)
      ? end.main - start.main
      : end.threads && start.threads ? (end.threads.get('main') ?? 0) - (start.threads.get('main') ?? 0) : NaN,
    threads: Object.fromEntries(
      [...(end.threads ?? new Map<string, number>())].map(([name, ms]) => [name, ms - (start.threads?.get(name) ?? 0)] as const).filter(([, ms]) => ms > 0),
    ),
  }
}
