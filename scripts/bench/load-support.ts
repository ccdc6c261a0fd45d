// What bench:load's runs share (scripts/bench/load.ts, load-compare.ts): the server as `npm start` runs it, the seeded
// datastore, the closed and open loops (each question: load-client.ts), CPU and memory from /proc.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { KEY, type Outcome } from './load-client'

export const ROOT = path.resolve(import.meta.dirname, '..', '..')
const DOCUMENTS = 1_000

export { ask, KEY, type Outcome } from './load-client'

export const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

export async function waitForHttp(url: string, child: ChildProcess, label: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${label} exited (${child.exitCode})`)
    if (await fetch(url).then(r => r.ok, () => false)) return
    await sleep(250)
  }
  throw new Error(`${label} did not answer at ${url}`)
}

export function freePort(base: number): number {
  return base + Math.floor(Math.random() * 500)
}

/**
 * CPU ms of every PostgreSQL process on this machine (/proc/<pid>/comm "postgres"): the database's own share of a
 * question when BENCH_DATABASE_URL points at a local server (the throwaway one of ../shared/tools). 0 if none.
 */
export function postgresCpuMs(): number {
  let total = 0
  for (const pid of fs.readdirSync('/proc').filter(name => /^\d+$/.test(name))) {
    try {
      // with the CPU of backends that ended (a pool closes idle connections): the postmaster reaps them
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') total += cpuMs(Number(pid), true)
    } catch {
      // gone meanwhile
    }
  }
  return total
}

/** A process's resident memory now and its peak so far, MB (Linux /proc: VmRSS, VmHWM). */
export function memoryMb(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN)
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) }
}

/** utime + stime of a process, in ms (Linux /proc); with `reaped`, also those of its children that ended (cutime + cstime). */
export function cpuMs(pid: number, reaped = false): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  const ticks = Number(fields[11]) + Number(fields[12]) + (reaped ? Number(fields[13]) + Number(fields[14]) : 0)
  return (ticks * 1000) / 100
}

/** The server as `npm start` runs it, of the tree at `root` (this one by default). */
export function startServer(port: number, env: Record<string, string>, nodeArgs: string[] = [], root = ROOT): ChildProcess {
  // MALLOC_ARENA_MAX: as `npm start` sets it (package.json)
  const child = spawn(process.execPath, [...nodeArgs, 'scripts/serve.mjs'], { cwd: root, env: { MALLOC_ARENA_MAX: '2', ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', NEXT_TELEMETRY_DISABLED: '1', LOG_LEVEL: 'warn' }, stdio: ['ignore', 'ignore', 'inherit'] })
  return child
}

export async function seed(base: string): Promise<{ agentId: string; questions: string[] }> {
  const dir = process.env.BENCH_BEIR ?? path.join(ROOT, '..', 'shared', 'data', 'scifact-train')
  const docs = fs.readFileSync(path.join(dir, 'corpus.jsonl'), 'utf8').split('\n').filter(Boolean).slice(0, DOCUMENTS).map(l => JSON.parse(l) as { title: string; text: string })
  const questions = fs.readFileSync(path.join(dir, 'queries.jsonl'), 'utf8').split('\n').filter(Boolean).map(l => (JSON.parse(l) as { text: string }).text)
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }
  const store = await (await fetch(`${base}/api/datastores`, { method: 'POST', headers, body: JSON.stringify({ name: 'SciFact' }) })).json() as { id: string }
  for (let i = 0; i < docs.length; i += 250) {
    const documents = docs.slice(i, i + 250).map(d => ({ text: `${d.title}\n\n${d.text}` }))
    const res = await fetch(`${base}/api/datastores/upsert/${store.id}`, { method: 'POST', headers, body: JSON.stringify({ documents }) })
    if (!res.ok) throw new Error(`upsert: ${res.status} ${await res.text()}`)
  }
  // until the worker has synched every document (none pending or running)
  for (;;) {
    const waiting = await (await fetch(`${base}/api/datastores/${store.id}/datasources?status=unsynched,pending,running&limit=1`, { headers })).json() as { items?: unknown[] }
    if (!Array.isArray(waiting.items)) throw new Error(`datasources: ${JSON.stringify(waiting).slice(0, 300)}`)
    if (waiting.items.length === 0) break
    await sleep(1000)
  }
  const agent = await (await fetch(`${base}/api/agents`, { method: 'POST', headers, body: JSON.stringify({ name: 'Load', datastoreIds: [store.id], minScore: 0 }) })).json() as { id: string }
  return { agentId: agent.id, questions }
}

/**
 * One visitor's questions: a first one, then `followUps` more in its conversation (the history read, the follow-up
 * rewritten into a standalone question before the search), then a new conversation.
 */
export function conversing(asks: (conversationId?: string) => Promise<Outcome>, followUps: number): () => Promise<Outcome> {
  let conversationId: string | undefined
  let turn = 0
  return async () => {
    const outcome = await asks(turn > 0 ? conversationId : undefined)
    conversationId = outcome.conversationId
    turn = conversationId && turn < followUps ? turn + 1 : 0
    return outcome
  }
}

export type Run = [outcomes: Outcome[], seconds: number, cpu: number, databaseCpu: number]

/** `level` visitors (each from `visitor()`), each asking again as soon as its answer ends, for `seconds`. */
export async function closedLoop(level: number, seconds: number, visitor: () => () => Promise<Outcome>, serverCpu: () => number): Promise<Run> {
  const outcomes: Outcome[] = []
  const [cpu, databaseCpu] = [serverCpu(), postgresCpuMs()]
  const until = performance.now() + seconds * 1000
  await Promise.all(Array.from({ length: level }, async () => {
    const asks = visitor()
    while (performance.now() < until) outcomes.push(await asks())
  }))
  return [outcomes, seconds, serverCpu() - cpu, postgresCpuMs() - databaseCpu]
}

/** `rate` questions arriving a second for `seconds`, whatever the answers do. */
export async function openLoop(rate: number, seconds: number, asker: () => Promise<Outcome>, serverCpu: () => number): Promise<Run> {
  const outcomes: Promise<Outcome>[] = []
  const [cpu, databaseCpu] = [serverCpu(), postgresCpuMs()]
  const started = performance.now()
  for (let i = 0; i < rate * seconds; i++) {
    const due = started + (i * 1000) / rate
    if (due > performance.now()) await sleep(due - performance.now())
    outcomes.push(asker())
  }
  const done = await Promise.all(outcomes)
  return [done, (performance.now() - started) / 1000, serverCpu() - cpu, postgresCpuMs() - databaseCpu]
}

/** The errors' causes with their counts ("HTTP 500 ×2; [ERROR] The model failed… ×1"), empty when none. */
function errorDetails(outcomes: Outcome[]): string {
  const counts = new Map<string, number>()
  for (const o of outcomes) if (o.status !== 200 && o.status !== 503) counts.set(o.detail ?? String(o.status), (counts.get(o.detail ?? String(o.status)) ?? 0) + 1)
  const resent = outcomes.filter(o => o.resent).length
  return [...[...counts].map(([detail, n]) => `${detail} ×${n}`), ...(resent ? [`(not errors: ${resent} sent again after the server closed their kept-alive connection)`] : [])].join('; ')
}

export function summary(label: string, outcomes: Outcome[], seconds: number, cpu: number, databaseCpu: number) {
  console.error(`${label}: ${outcomes.length} questions`)
  const ok = outcomes.filter(o => o.status === 200).map(o => o.firstMs!).sort((a, b) => a - b)
  const at = (p: number) => (ok.length ? Math.round(ok[Math.min(ok.length - 1, Math.floor((p / 100) * ok.length))]) : NaN)
  return {
    load: label,
    questions_per_s: Math.round((ok.length / seconds) * 10) / 10,
    first_p50_ms: at(50), first_p95_ms: at(95), first_p99_ms: at(99),
    cpu_ms_per_question: ok.length ? Math.round((cpu / ok.length) * 10) / 10 : NaN,
    database_cpu_ms_per_question: ok.length ? Math.round((databaseCpu / ok.length) * 10) / 10 : NaN,
    errors: outcomes.filter(o => o.status !== 200 && o.status !== 503).length,
    error_details: errorDetails(outcomes),
    refused_503: outcomes.filter(o => o.status === 503).length,
  }
}

export function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve()
  return new Promise(resolve => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

