// `npm run bench:load -- --compare DIR [--levels 1,8,64 --seconds 15 --rate 50]`: this tree and another (DIR, a
// checkout with its own build: a git worktree, say) under one load at the same time, so that both meet the same
// machine. Runs one after the other differ by ±10 % on a shared 2-core machine, more than most changes do; here each
// level's visitors are split between the two servers (half on each), an open loop's arrivals alternate, and each
// server's CPU a question comes from its own /proc. Same fake model, same corpus, same questions in the same order,
// each server on a fresh DATA_DIR (embedded database).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ask, conversing, cpuMs, freePort, KEY, type Outcome, ROOT, seed, sleep, startServer, stopped, summary, waitForHttp } from './load-support'

interface Side { label: string; child: ChildProcess; base: string; agentId: string; questions: string[]; next: number; dataDir: string }
type Measured = [Outcome[], number, number, number]

const asks = (side: Side, conversationId?: string) => ask(side.base, side.agentId, side.questions[side.next++ % side.questions.length], conversationId)

/** `level` visitors split between the sides, each asking again as soon as its answer ends, for `seconds`. */
async function closedLoop(level: number, seconds: number, sides: Side[], followUps: number): Promise<Measured[]> {
  const outcomes = sides.map(() => [] as Outcome[])
  const cpu = sides.map(s => cpuMs(s.child.pid!))
  const until = performance.now() + seconds * 1000
  const each = Math.max(1, Math.round(level / sides.length))
  await Promise.all(sides.flatMap((side, k) => Array.from({ length: each }, async () => {
    const visitor = conversing(conversationId => asks(side, conversationId), followUps)
    while (performance.now() < until) outcomes[k].push(await visitor())
  })))
  return sides.map((s, k) => [outcomes[k], seconds, cpuMs(s.child.pid!) - cpu[k], 0])
}

/** `rate` arrivals a second in all, alternating between the sides, whatever the answers do. */
async function openLoop(rate: number, seconds: number, sides: Side[]): Promise<Measured[]> {
  const outcomes = sides.map(() => [] as Promise<Outcome>[])
  const cpu = sides.map(s => cpuMs(s.child.pid!))
  const started = performance.now()
  for (let i = 0; i < rate * seconds; i++) {
    const due = started + (i * 1000) / rate
    if (due > performance.now()) await sleep(due - performance.now())
    outcomes[i % sides.length].push(asks(sides[i % sides.length]))
  }
  const done = await Promise.all(outcomes.map(o => Promise.all(o)))
  const elapsed = (performance.now() - started) / 1000
  return sides.map((s, k) => [done[k], elapsed, cpuMs(s.child.pid!) - cpu[k], 0])
}

const commitOf = (dir: string) => spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: dir, encoding: 'utf8' }).stdout.trim() || '?'

async function startSide(root: string, env: Record<string, string>, port: number): Promise<Side> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-load-'))
  const child = startServer(port, { ...env, DATA_DIR: dataDir }, [], root)
  const base = `http://127.0.0.1:${port}`
  const label = `${root === ROOT ? 'this tree' : path.basename(root)} (${commitOf(root)})`
  try {
    await waitForHttp(`${base}/api/health`, child, label)
  } catch (error) {
    fs.rmSync(dataDir, { recursive: true, force: true })
    throw error
  }
  return { label, child, base, agentId: '', questions: [], next: 0, dataDir }
}

function report(rows: { load: string; measured: Measured[] }[], sides: Side[]): void {
  const [a, b] = sides
  console.log(`| load (visitors split between the two) | questions/s, ${a.label} / ${b.label} | first answer p50 | p95 | server CPU a question | ratio of CPU a question | errors, 503 |`)
  console.log('|---|---|---|---|---|---|---|')
  for (const row of rows) {
    const [x, y] = row.measured.map(m => summary(row.load, ...m))
    const ratio = (x.cpu_ms_per_question / y.cpu_ms_per_question).toFixed(2)
    console.log(`| ${row.load} | ${x.questions_per_s} / ${y.questions_per_s} | ${x.first_p50_ms} / ${y.first_p50_ms} ms | ${x.first_p95_ms} / ${y.first_p95_ms} ms | ${x.cpu_ms_per_question} / ${y.cpu_ms_per_question} ms | ${ratio} | ${x.errors + y.errors}, ${x.refused_503 + y.refused_503} |`)
  }
}

export async function runCompare(dir: string, options: { levels: number[]; seconds: number; rate: number; followUps: number }): Promise<void> {
  if (process.env.BENCH_DATABASE_URL) throw new Error('--compare runs the embedded database only (each tree its own DATA_DIR)')
  if (!fs.existsSync(path.join(dir, '.next', 'BUILD_ID'))) throw new Error(`${dir} has no build: run \`node scripts/prepare.mjs --build\` there first`)
  const modelPort = freePort(41000)
  const model = spawn(process.execPath, ['e2e/support/fake-openai-server.mjs', String(modelPort)], { cwd: ROOT, stdio: 'ignore' })
  const env = {
    INIT_ADMIN_EMAIL: 'bench@example.com', INIT_ADMIN_PASSWORD: 'bench-password-123', INIT_API_KEY: KEY,
    OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: `http://127.0.0.1:${modelPort}/v1`, EMBEDDINGS_DIMENSIONS: '64',
  }
  const sides: Side[] = []
  try {
    await waitForHttp(`http://127.0.0.1:${modelPort}/health`, model, 'the fake model')
    sides.push(await startSide(ROOT, env, freePort(42000)), await startSide(dir, env, freePort(43000)))
    for (const side of sides) Object.assign(side, await seed(side.base))
    const load = os.loadavg()[0]
    const rows = []
    for (const level of options.levels) rows.push({ load: `${level} at a time`, measured: await closedLoop(level, options.seconds, sides, options.followUps) })
    if (options.rate > 0) rows.push({ load: `${options.rate} arriving a second`, measured: await openLoop(options.rate, options.seconds, sides) })
    console.log(`\nCommand: \`npm run bench:load -- --compare ${dir} --levels ${options.levels.join(',')} --seconds ${options.seconds} --rate ${options.rate}${options.followUps ? ` --follow-ups ${options.followUps}` : ''}\` (embedded PGlite; 1,000 SciFact abstracts each; load average at start ${load.toFixed(1)}, ${os.cpus().length} cores)\n`)
    report(rows, sides)
  } finally {
    await Promise.all(sides.map(s => stopped(s.child)))
    for (const side of sides) fs.rmSync(side.dataDir, { recursive: true, force: true })
    model.kill('SIGTERM')
  }
}
