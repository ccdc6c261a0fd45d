// kill -9 of a sync worker in the middle of a job, on the embedded database (PGlite on disk), then recovery by a
// second worker process once the dead one's lease expires. Used by tests/hardening-faults.test.ts (one or two kills)
// and runnable alone for many kills at random moments (figures in docs/reliability.md):
//   node --conditions=react-server --import tsx scripts/reliability/kill9.ts [cycles=20] [chunks=400]
// Each child is scripts/reliability/worker-child.ts on the same DATA_DIR (a temp dir), one at a time: PGlite cannot
// share a folder between processes, which the DATA_DIR lock enforces; a killed child leaves a stale lock that the
// next one takes over.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startFakeOpenAI } from '../../e2e/support/fake-openai-server.mjs'

const ROOT = path.resolve(import.meta.dirname, '../..')
const CHILD = path.join(ROOT, 'scripts/reliability/worker-child.ts')

type Fake = Awaited<ReturnType<typeof startFakeOpenAI>>

export interface ChildEvent {
  event: string
  at: number
  [key: string]: unknown
}

interface Child {
  process: ChildProcess
  events: ChildEvent[]
  stderr: string[]
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  waitFor(event: string, timeoutMs?: number): Promise<ChildEvent>
}

function startChild(args: string[], env: Record<string, string>): Child {
  const child = spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', CHILD, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  const events: ChildEvent[] = []
  const stderr: string[] = []
  const waiters: (() => void)[] = []
  let buffer = ''
  child.stdout!.on('data', (data: Buffer) => {
    buffer += data.toString()
    let nl: number
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl)
      buffer = buffer.slice(nl + 1)
      try {
        events.push(JSON.parse(line))
      } catch {
        stderr.push(line)
      }
      waiters.splice(0).forEach(w => w())
    }
  })
  child.stderr!.on('data', (data: Buffer) => stderr.push(data.toString()))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(resolve => child.on('exit', (code, signal) => {
    resolve({ code, signal })
    waiters.splice(0).forEach(w => w())
  }))
  let done = false
  exited.then(() => (done = true))
  const waitFor = async (event: string, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const found = events.find(e => e.event === event)
      if (found) return found
      const failed = events.find(e => e.event === 'failed')
      if (failed) throw new Error(`child ${args.join(' ')} failed: ${failed.message}\n${failed.stack ?? ''}`)
      if (done) throw new Error(`child ${args.join(' ')} exited without "${event}": ${stderr.join('').slice(-2000)}`)
      if (Date.now() > deadline) throw new Error(`child ${args.join(' ')}: no "${event}" within ${timeoutMs} ms`)
      await new Promise<void>(resolve => {
        waiters.push(resolve)
        setTimeout(resolve, 100)
      })
    }
  }
  return { process: child, events, stderr, exited, waitFor }
}

export interface KillPlan {
  /** embeddings: when the worker sends its Nth embeddings request; random: after a random delay from the job's start. */
  at: 'embeddings' | 'random'
  /** For `embeddings`: which request (1-based). For `random`: the longest delay in ms. */
  value: number
  /** For `embeddings`: wait this long after the request arrived (its answer takes embeddingsDelayMs). */
  plusMs?: number
}

export interface KillCycle {
  plan: KillPlan
  killedAfterMs: number
  embeddingsRequestsBeforeKill: number
  /** The state found on disk by a new process right after the kill. */
  afterKill: Record<string, unknown>
  /** Whether the job had already finished when the kill came (then the cycle proves nothing). */
  finishedBeforeKill: boolean
}

export interface KillReport {
  dataDir: string
  datasourceId: string
  cycles: KillCycle[]
  final: Record<string, unknown>
  recoveryMs: number
}

const embeddingsCount = (fake: Fake) => fake.requests.filter((r: { path: string }) => r.path === '/v1/embeddings').length

/** Seeds a datasource of `chunks` chunks, kills a worker mid-job once per plan, then lets a last worker finish it. */
export async function killAndRecover(options: { fake: Fake; chunks: number; plans: KillPlan[]; embeddingsDelayMs?: number; log?: (line: string) => void }): Promise<KillReport> {
  const { fake, plans } = options
  const log = options.log ?? (() => {})
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kill9-'))
  const env = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    WORKER: 'off',
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: fake.baseURL,
    EMBEDDINGS_DIMENSIONS: '64',
    WORKER_LEASE_SECONDS: '2',
    WORKER_MAX_ATTEMPTS: String(plans.length + 5),
    WORKER_RETRY_BASE_SECONDS: '1',
  }
  const seed = startChild(['seed', String(options.chunks)], env)
  const datasourceId = String((await seed.waitFor('seeded')).datasourceId)
  await seed.exited
  const cycles: KillCycle[] = []
  for (const [i, plan] of plans.entries()) {
    const previous = cycles[cycles.length - 1]?.afterKill as { status?: string } | undefined
    if (previous?.status === 'synched') {
      // the job finished: give the next worker a re-sync to be killed in (replacing every chunk, alternately fewer)
      const requeue = startChild(['requeue', datasourceId, String(i % 2 ? options.chunks - 20 : options.chunks)], env)
      await requeue.waitFor('requeued')
      await requeue.exited
    }
    fake.setBehaviour({ embeddingsDelayMs: options.embeddingsDelayMs ?? 600 })
    const before = embeddingsCount(fake)
    const worker = startChild(['work', datasourceId], env)
    const opened = await worker.waitFor('opened')
    const started = Date.now()
    if (plan.at === 'embeddings') {
      while (embeddingsCount(fake) - before < plan.value && worker.process.exitCode === null) await new Promise(r => setTimeout(r, 5))
      if (plan.plusMs) await new Promise(r => setTimeout(r, plan.plusMs))
    } else {
      await new Promise(r => setTimeout(r, Math.floor(Math.random() * plan.value)))
    }
    const finishedBeforeKill = worker.events.some(e => e.event === 'settled') || worker.process.exitCode !== null
    worker.process.kill('SIGKILL')
    const exit = await worker.exited
    const killedAfterMs = Date.now() - started
    const requests = embeddingsCount(fake) - before
    fake.setBehaviour({})
    // a new process opens the folder the killed one was writing: the on-disk state must be readable and consistent
    const look = startChild(['inspect', datasourceId], env)
    const afterKill = (await look.waitFor('inspected')) as Record<string, unknown>
    await look.exited
    cycles.push({ plan, killedAfterMs, embeddingsRequestsBeforeKill: requests, afterKill, finishedBeforeKill })
    log(`kill at ${JSON.stringify(plan)} after ${killedAfterMs} ms (${requests} embeddings requests, exit ${exit.signal ?? exit.code}, opened in ${opened.ms} ms): ${JSON.stringify(afterKill)}`)
  }
  fake.setBehaviour({})
  const recovered = Date.now()
  const last = startChild(['work', datasourceId], { ...env, WORKER_LEASE_SECONDS: '1' })
  const final = (await last.waitFor('settled', 120_000)) as Record<string, unknown>
  await last.exited
  const recoveryMs = Date.now() - recovered
  log(`recovered in ${recoveryMs} ms: ${JSON.stringify(final)}`)
  return { dataDir, datasourceId, cycles, final, recoveryMs }
}

async function main() {
  const cycles = Number(process.argv[2] ?? 20)
  const chunks = Number(process.argv[3] ?? 400)
  const fake = await startFakeOpenAI()
  const plans: KillPlan[] = Array.from({ length: cycles }, (_, i) => (i % 2 === 0 ? { at: 'random', value: 6000 } : { at: 'embeddings', value: 1 + (i % 5), plusMs: Math.floor(Math.random() * 700) }))
  const started = Date.now()
  const report = await killAndRecover({ fake, chunks, plans, log: line => console.log(line) })
  await fake.close()
  const partial = report.cycles.filter(c => {
    const a = c.afterKill as { visible: number; nbChunks: number; status: string; duplicates: number; stray: number }
    return a.duplicates > 0 || a.stray > 0 || (a.visible !== 0 && a.visible !== a.nbChunks)
  })
  const f = report.final as { status: string; count: number; nbChunks: number; duplicates: number; positions: number; maxPos: number }
  const ok = f.status === 'synched' && f.count === f.nbChunks && f.duplicates === 0 && f.positions === f.count && f.maxPos === f.count - 1 && partial.length === 0
  console.log(JSON.stringify({
    summary: {
      kills: report.cycles.length,
      killsMidJob: report.cycles.filter(c => !c.finishedBeforeKill).length,
      unreadableAfterKill: report.cycles.filter(c => !(c.afterKill as { readable?: boolean }).readable).length,
      partialStatesAfterKill: partial.length,
      final: report.final,
      recoveryMs: report.recoveryMs,
      seconds: Math.round((Date.now() - started) / 1000),
      ok,
    },
  }))
  fs.rmSync(report.dataDir, { recursive: true, force: true })
  process.exit(ok ? 0 : 1)
}

if (import.meta.url === `file://${process.argv[1]}`) void main()
