// `npm run bench:load [-- --levels 1,8,64 --seconds 15 --rate 50 --processes 2]`: many visitors at once (issue 28),
// over real HTTP against the built app as `npm start` runs it (scripts/serve.mjs, its own process, fresh DATA_DIR),
// a datastore of 1,000 SciFact abstracts (real text; ../shared/data/scifact-train, BENCH_BEIR to point elsewhere),
// streaming agent questions (SciFact's claims) against the fake OpenAI-compatible server in a process of its own
// (first piece at once). Closed loop at each level (that many visitors, each asking again as soon as an answer
// ends), then an open loop (`--rate` arrivals a second, whatever the answers do). Prints questions/s, time to the
// first answer event p50/p95/p99, the server's CPU ms a question (/proc, every server process), errors and 503s.
// BENCH_DATABASE_URL=postgres://…: the server on PostgreSQL; with `--processes 2` a second web process (WORKER=off)
// on the same database, requests round-robin.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createParser } from 'eventsource-parser'
import { printProfile } from './load-profile'

const ROOT = path.resolve(import.meta.dirname, '..', '..')
const KEY = 'ads_bench_load_key_0123456789abcdef'
const DOCUMENTS = 1_000

interface Options { levels: number[]; seconds: number; rate: number; processes: number; profile?: string }
interface Outcome { firstMs: number | null; status: number }

function parseOptions(argv: string[]): Options {
  const value = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined)
  return {
    levels: (value('--levels') ?? '1,8,64').split(',').map(Number),
    seconds: Number(value('--seconds') ?? 15),
    rate: Number(value('--rate') ?? 50),
    processes: Number(value('--processes') ?? 1),
    profile: value('--profile') && path.resolve(value('--profile')!),
  }
}

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

async function waitForHttp(url: string, child: ChildProcess, label: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${label} exited (${child.exitCode})`)
    if (await fetch(url).then(r => r.ok, () => false)) return
    await sleep(250)
  }
  throw new Error(`${label} did not answer at ${url}`)
}

function freePort(base: number): number {
  return base + Math.floor(Math.random() * 500)
}

/**
 * CPU ms of every PostgreSQL process on this machine (/proc/<pid>/comm "postgres"): the database's own share of a
 * question when BENCH_DATABASE_URL points at a local server (the throwaway one of ../shared/tools). 0 if none.
 */
function postgresCpuMs(): number {
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
function memoryMb(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN)
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) }
}

/** utime + stime of a process, in ms (Linux /proc); with `reaped`, also those of its children that ended (cutime + cstime). */
function cpuMs(pid: number, reaped = false): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  const ticks = Number(fields[11]) + Number(fields[12]) + (reaped ? Number(fields[13]) + Number(fields[14]) : 0)
  return (ticks * 1000) / 100
}

function startServer(port: number, env: Record<string, string>, nodeArgs: string[] = []): ChildProcess {
  // MALLOC_ARENA_MAX: as `npm start` sets it (package.json)
  const child = spawn(process.execPath, [...nodeArgs, 'scripts/serve.mjs'], { cwd: ROOT, env: { MALLOC_ARENA_MAX: '2', ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', NEXT_TELEMETRY_DISABLED: '1', LOG_LEVEL: 'warn' }, stdio: ['ignore', 'ignore', 'inherit'] })
  return child
}

async function seed(base: string): Promise<{ agentId: string; questions: string[] }> {
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

/** One streamed question: the time to its first answer event, or its refusal. */
async function ask(base: string, agentId: string, question: string): Promise<Outcome> {
  const started = performance.now()
  const res = await fetch(`${base}/api/agents/${agentId}/query`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: question, streaming: true }),
  }).catch(() => null)
  if (!res) return { firstMs: null, status: 0 }
  if (res.status !== 200) {
    await res.arrayBuffer().catch(() => {})
    return { firstMs: null, status: res.status }
  }
  let first: number | null = null
  let done = false
  const parser = createParser({ onEvent: e => {
    if (first === null && (e.event === 'answer' || (!e.event && e.data !== '[DONE]'))) first = performance.now() - started
    if (e.data === '[DONE]') done = true
  } })
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
  for (let read = await reader.read(); !read.done; read = await reader.read()) parser.feed(read.value)
  return { firstMs: first, status: done && first !== null ? 200 : 599 }
}

type Run = [outcomes: Outcome[], seconds: number, cpu: number, databaseCpu: number]

/** `level` visitors, each asking again as soon as its answer ends, for `seconds`. */
async function closedLoop(level: number, seconds: number, asker: () => Promise<Outcome>, serverCpu: () => number): Promise<Run> {
  const outcomes: Outcome[] = []
  const [cpu, databaseCpu] = [serverCpu(), postgresCpuMs()]
  const until = performance.now() + seconds * 1000
  await Promise.all(Array.from({ length: level }, async () => {
    while (performance.now() < until) outcomes.push(await asker())
  }))
  return [outcomes, seconds, serverCpu() - cpu, postgresCpuMs() - databaseCpu]
}

/** `rate` questions arriving a second for `seconds`, whatever the answers do. */
async function openLoop(rate: number, seconds: number, asker: () => Promise<Outcome>, serverCpu: () => number): Promise<Run> {
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

function summary(label: string, outcomes: Outcome[], seconds: number, cpu: number, databaseCpu: number) {
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
    refused_503: outcomes.filter(o => o.status === 503).length,
  }
}

export async function run(argv: string[] = []): Promise<void> {
  const options = parseOptions(argv)
  const built = spawnSync(process.execPath, ['scripts/prepare.mjs', '--build'], { cwd: ROOT, stdio: 'inherit' })
  if (built.status !== 0) throw new Error('the build failed')
  const modelPort = freePort(41000)
  const model = spawn(process.execPath, ['e2e/support/fake-openai-server.mjs', String(modelPort)], { cwd: ROOT, stdio: 'ignore' })
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-load-'))
  const env: Record<string, string> = {
    DATA_DIR: dataDir, INIT_ADMIN_EMAIL: 'bench@example.com', INIT_ADMIN_PASSWORD: 'bench-password-123', INIT_API_KEY: KEY,
    OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: `http://127.0.0.1:${modelPort}/v1`, EMBEDDINGS_DIMENSIONS: '64',
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  }
  const servers: { child: ChildProcess; base: string }[] = []
  try {
    await waitForHttp(`http://127.0.0.1:${modelPort}/health`, model, 'the fake model')
    for (let i = 0; i < options.processes; i++) {
      const port = freePort(42000 + i * 1000)
      const child = startServer(port, i === 0 ? env : { ...env, WORKER: 'off' })
      servers.push({ child, base: `http://127.0.0.1:${port}` })
      await waitForHttp(`http://127.0.0.1:${port}/api/health`, child, `server ${i + 1}`)
    }
    await sleep(2000) // settled after its start: the first server's memory before any work
    const started = memoryMb(servers[0].child.pid!)
    const { agentId, questions } = await seed(servers[0].base)
    const seeded = memoryMb(servers[0].child.pid!)
    // --profile DIR: the first server again, seeded, under --cpu-prof (written when it stops), so the profile is the load's
    if (options.profile) servers[0].child = await restartProfiled(servers[0], env, options.profile)
    let next = 0
    const question = () => questions[next++ % questions.length]
    const base = () => servers[next % servers.length].base
    const serverCpu = () => servers.reduce((sum, s) => sum + cpuMs(s.child.pid!), 0)
    const asker = () => ask(base(), agentId, question())
    const rows = []
    const load = os.loadavg()[0]
    for (const level of options.levels) rows.push(summary(`${level} at a time`, ...(await closedLoop(level, options.seconds, asker, serverCpu))))
    if (options.rate > 0) rows.push(summary(`${options.rate} arriving a second`, ...(await openLoop(options.rate, options.seconds, asker, serverCpu))))
    const database = process.env.BENCH_DATABASE_URL ? `PostgreSQL, ${options.processes} web process${options.processes > 1 ? 'es' : ''}` : 'embedded PGlite, one process'
    console.log(`\nCommand: \`${process.env.BENCH_DATABASE_URL ? 'BENCH_DATABASE_URL=… ' : ''}npm run bench:load -- --levels ${options.levels.join(',')} --seconds ${options.seconds} --rate ${options.rate} --processes ${options.processes}\` (${database}; 1,000 SciFact abstracts; load average at start ${load.toFixed(1)}, ${os.cpus().length} cores)\n`)
    const onPostgres = !!process.env.BENCH_DATABASE_URL
    console.log(`| load | questions/s | first answer p50 | p95 | p99 | server CPU a question |${onPostgres ? ' PostgreSQL CPU a question |' : ''} errors | 503 |`)
    console.log(`|---|---|---|---|---|---|${onPostgres ? '---|' : ''}---|---|`)
    for (const r of rows) console.log(`| ${r.load} | ${r.questions_per_s} | ${r.first_p50_ms} ms | ${r.first_p95_ms} ms | ${r.first_p99_ms} ms | ${r.cpu_ms_per_question} ms |${onPostgres ? ` ${r.database_cpu_ms_per_question} ms |` : ''} ${r.errors} | ${r.refused_503} |`)
    const end = memoryMb(servers[0].child.pid!)
    console.log(`\nThe first server's memory: ${started.rss} MB resident after its start, ${seeded.rss} MB after seeding (peak ${seeded.peak} MB), ${end.rss} MB after the load (peak ${end.peak} MB)${options.profile ? ' — restarted under the profiler after seeding' : ''}`)
  } finally {
    await Promise.all(servers.map(s => stopped(s.child)))
    model.kill('SIGTERM')
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  if (options.profile) printProfile(options.profile)
}

function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve()
  return new Promise(resolve => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

async function restartProfiled(server: { child: ChildProcess; base: string }, env: Record<string, string>, dir: string): Promise<ChildProcess> {
  await stopped(server.child)
  fs.mkdirSync(dir, { recursive: true })
  const child = startServer(Number(new URL(server.base).port), env, ['--cpu-prof', '--cpu-prof-dir', dir])
  await waitForHttp(`${server.base}/api/health`, child, 'the profiled server')
  return child
}
