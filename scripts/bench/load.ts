// `npm run bench:load [-- --levels 1,8,64 --seconds 15 --rate 50 --processes 2]`: many visitors at once (issue 28),
// over real HTTP against the built app as `npm start` runs it (scripts/serve.mjs, its own process, fresh DATA_DIR),
// a datastore of 1,000 SciFact abstracts (real text; ../shared/data/scifact-train, BENCH_BEIR to point elsewhere),
// streaming agent questions (SciFact's claims) against the fake OpenAI-compatible server in a process of its own
// (first piece at once). Closed loop at each level (that many visitors, each asking again as soon as an answer
// ends), then an open loop (`--rate` arrivals a second, whatever the answers do). Prints questions/s, time to the
// first answer event p50/p95/p99, the server's CPU ms a question (/proc, every server process), errors and 503s.
// BENCH_DATABASE_URL=postgres://…: the server on PostgreSQL; with `--processes 2` a second web process (WORKER=off)
// on the same database, requests round-robin.
// `--follow-ups N`: each visitor of a closed loop asks N follow-ups in its conversation after a first question (its
// history read, each rewritten into a standalone question by the model before the search); an open loop's arrivals
// are first questions. `--compare DIR`: scripts/bench/load-compare.ts. `--statements`: each level's statements by their
// time on the embedded database's thread, or on PostgreSQL by pg_stat_statements (scripts/bench/load-statements.ts).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { runCompare } from './load-compare'
import { printProfile } from './load-profile'
import { statementSnapshot, statementsTable, type StatementSource } from './load-statements'
import { closedLoop, cpuMs, KEY, memoryMb, openLoop, ROOT, seed, sleep, startServer, stopped, summary, waitForHttp, freePort, ask, conversing, type Outcome, type Run } from './load-support'

interface Options { levels: number[]; seconds: number; rate: number; processes: number; followUps: number; profile?: string; compare?: string; statements: boolean }

function parseOptions(argv: string[]): Options {
  const value = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined)
  return {
    levels: (value('--levels') ?? '1,8,64').split(',').map(Number),
    seconds: Number(value('--seconds') ?? 15),
    rate: Number(value('--rate') ?? 50),
    processes: Number(value('--processes') ?? 1),
    followUps: Number(value('--follow-ups') ?? 0),
    profile: value('--profile') && path.resolve(value('--profile')!),
    compare: value('--compare') && path.resolve(value('--compare')!),
    statements: argv.includes('--statements'),
  }
}

export async function run(argv: string[] = []): Promise<void> {
  const options = parseOptions(argv)
  const built = spawnSync(process.execPath, ['scripts/prepare.mjs', '--build'], { cwd: ROOT, stdio: 'inherit' })
  if (built.status !== 0) throw new Error('the build failed')
  if (options.compare) return runCompare(options.compare, options)
  const modelPort = freePort(41000)
  const model = spawn(process.execPath, ['e2e/support/fake-openai-server.mjs', String(modelPort)], { cwd: ROOT, stdio: 'ignore' })
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-load-'))
  const env: Record<string, string> = {
    DATA_DIR: dataDir, INIT_ADMIN_EMAIL: 'bench@example.com', INIT_ADMIN_PASSWORD: 'bench-password-123', INIT_API_KEY: KEY,
    OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: `http://127.0.0.1:${modelPort}/v1`, EMBEDDINGS_DIMENSIONS: '64',
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
    ...(options.statements && !process.env.BENCH_DATABASE_URL ? { DATABASE_STATEMENT_PROFILE: path.join(dataDir, 'statements.tsv') } : {}),
  }
  const statementSource: StatementSource | undefined = !options.statements ? undefined
    : process.env.BENCH_DATABASE_URL ? { postgres: process.env.BENCH_DATABASE_URL } : { file: env.DATABASE_STATEMENT_PROFILE }
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
    const visitor = () => conversing(conversationId => ask(base(), agentId, question(), conversationId), options.followUps)
    const load = os.loadavg()[0]
    // what shares the cores with the server: this process (the visitors) and the fake model
    const clientCpu = () => { const own = process.cpuUsage(); return (own.user + own.system) / 1000 + cpuMs(model.pid!) }
    const { rows, statements } = await measureLevels(options, visitor, asker, serverCpu, clientCpu, statementSource)
    const database = process.env.BENCH_DATABASE_URL ? `PostgreSQL, ${options.processes} web process${options.processes > 1 ? 'es' : ''}` : 'embedded PGlite, one process'
    console.log(`\nCommand: \`${process.env.BENCH_DATABASE_URL ? 'BENCH_DATABASE_URL=… ' : ''}npm run bench:load -- --levels ${options.levels.join(',')} --seconds ${options.seconds} --rate ${options.rate} --processes ${options.processes}${options.followUps ? ` --follow-ups ${options.followUps}` : ''}\` (${database}; 1,000 SciFact abstracts; load average at start ${load.toFixed(1)}, ${os.cpus().length} cores)\n`)
    const onPostgres = !!process.env.BENCH_DATABASE_URL
    console.log(`| load | questions/s | first answer p50 | p95 | p99 | server CPU a question |${onPostgres ? ' PostgreSQL CPU a question |' : ''} errors | 503 | visitors + fake model CPU a question |`)
    console.log(`|---|---|---|---|---|---|${onPostgres ? '---|' : ''}---|---|---|`)
    for (const r of rows) console.log(`| ${r.load} | ${r.questions_per_s} | ${r.first_p50_ms} ms | ${r.first_p95_ms} ms | ${r.first_p99_ms} ms | ${r.cpu_ms_per_question} ms |${onPostgres ? ` ${r.database_cpu_ms_per_question} ms |` : ''} ${r.errors} | ${r.refused_503} | ${r.client_cpu_ms_per_question} ms |`)
    for (const r of rows) if (r.error_details) console.log(`\n${r.errors ? "Errors" : "Note"} at ${r.load}: ${r.error_details}`)
    if (statements.length) console.log(statements.join('\n'))
    const end = memoryMb(servers[0].child.pid!)
    console.log(`\nThe first server's memory: ${started.rss} MB resident after its start, ${seeded.rss} MB after seeding (peak ${seeded.peak} MB), ${end.rss} MB after the load (peak ${end.peak} MB)${options.profile ? ' — restarted under the profiler after seeding' : ''}`)
  } finally {
    await Promise.all(servers.map(s => stopped(s.child)))
    model.kill('SIGTERM')
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  if (options.profile) printProfile(options.profile)
}

async function restartProfiled(server: { child: ChildProcess; base: string }, env: Record<string, string>, dir: string): Promise<ChildProcess> {
  await stopped(server.child)
  fs.mkdirSync(dir, { recursive: true })
  const child = startServer(Number(new URL(server.base).port), env, ['--cpu-prof', '--cpu-prof-dir', dir])
  await waitForHttp(`${server.base}/api/health`, child, 'the profiled server')
  return child
}

/** Each closed level, then the open loop; with `source` (--statements), each one's statements too. */
async function measureLevels(options: Options, visitor: () => () => Promise<Outcome>, asker: () => Promise<Outcome>, serverCpu: () => number, clientCpu: () => number, source?: StatementSource) {
  const rows: (ReturnType<typeof summary> & { client_cpu_ms_per_question: number })[] = []
  const statements: string[] = []
  const measured = async (label: string, run: () => Promise<Run>) => {
    const before = source ? await statementSnapshot(source) : undefined
    const client = clientCpu()
    const result = await run()
    const answered = result[0].filter(o => o.status === 200).length
    const row = { ...summary(label, ...result), client_cpu_ms_per_question: answered ? Math.round(((clientCpu() - client) / answered) * 10) / 10 : NaN }
    rows.push(row)
    if (before && source) statements.push(statementsTable(label, before, await statementSnapshot(source), Math.round(row.questions_per_s * options.seconds), 'postgres' in source))
  }
  for (const level of options.levels) await measured(`${level} at a time`, () => closedLoop(level, options.seconds, visitor, serverCpu))
  if (options.rate > 0) await measured(`${options.rate} arriving a second`, () => openLoop(options.rate, options.seconds, asker, serverCpu))
  return { rows, statements }
}

