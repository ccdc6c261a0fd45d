// `npm run bench:ingest-profile -- --compare DIR [--rounds N] [--docs N …]`: the ingest profile
// (scripts/bench/ingest-profile.ts) of two trees, measured in the same session: runs alternate between the tree
// "before" (DIR, e.g. a clone at the commit before a refactor, with node_modules) and this tree ("after"): before,
// after, before, after… (N rounds, 2 by default; with --balanced every other round runs after first: before, after,
// after, before…, so that a drift of the machine during the session weighs on both alike), each a child process in its tree's own directory with its own
// tsx (node_modules/.bin/tsx, with --conditions=react-server when the tree's npm scripts use it) on a fresh database.
// This script copies ingest-profile.ts and its folder ingest-profile/ into DIR/scripts/bench first
// (they rely only on what both trees have) and generates DIR's Prisma client (scripts/prepare.mjs). Prints the
// runs, then one Markdown table: chunks/s, CPU per chunk, per category, the SQL experiment, and after/before.
//
// Also runnable alone: `node_modules/.bin/tsx scripts/bench/ingest-compare.ts DIR [--rounds N] [--balanced] [--docs N …]`.
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { CATEGORIES } from './ingest-profile/categories'
import { categoryCpuMs, embeddingsOf, f, mean, sqlDeltas, statementCpuMs } from './ingest-profile/measures'
import { treeState, type ProfileResult } from './ingest-profile/result'

const ROOT = path.resolve(import.meta.dirname, '..', '..')
const PROFILE = path.join('scripts', 'bench', 'ingest-profile.ts')
const PROFILE_PARTS = path.join('scripts', 'bench', 'ingest-profile')

/** This tree's profile (its entry point and its folder's files) written into `dir`, where it differs. */
function copyProfile(dir: string): void {
  const parts = fs.readdirSync(path.join(ROOT, PROFILE_PARTS)).map(name => path.join(PROFILE_PARTS, name))
  fs.mkdirSync(path.join(dir, PROFILE_PARTS), { recursive: true })
  for (const file of [PROFILE, ...parts]) {
    const target = path.join(dir, file)
    const source = fs.readFileSync(path.join(ROOT, file))
    if (!fs.existsSync(target) || !fs.readFileSync(target).equals(source)) fs.writeFileSync(target, source)
  }
}

function prepareTree(dir: string): void {
  if (!fs.existsSync(path.join(dir, 'node_modules', '.bin', 'tsx'))) {
    throw new Error(`${dir} has no node_modules/.bin/tsx: give it node_modules first (cp -al ${ROOT}/node_modules ${dir}/node_modules, or npm ci)`)
  }
  if (path.resolve(dir) !== ROOT) copyProfile(dir)
  const r = spawnSync(process.execPath, ['scripts/prepare.mjs'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] })
  if (r.status !== 0) throw new Error(`scripts/prepare.mjs failed in ${dir}`)
}

/** Whether the tree's openBenchEnvironment can open without OPENAI_API_KEY (scripts/bench/datastore-support.ts). */
function leavesOutTheKey(dir: string): boolean {
  const support = path.join(dir, 'scripts', 'bench', 'datastore-support.ts')
  return fs.existsSync(support) && fs.readFileSync(support, 'utf8').includes('embeddings?: boolean')
}

/** One profile run as a child process in `dir`; its output goes to `log`. */
function runProfile(dir: string, label: string, args: string[], json: string, log: string): Promise<ProfileResult> {
  return new Promise((resolve, reject) => {
    const out = fs.openSync(log, 'w')
    const env = { ...process.env }
    for (const key of ['DATABASE_URL', 'DATA_DIR', 'WORKER']) delete env[key]
    // as `npm start` runs the service (settings read once where a tree does so), unless the tree's bench could not
    // then leave out the embeddings key for --no-embeddings (it removes it after the settings were first read)
    if (!args.includes('--no-embeddings') || leavesOutTheKey(dir)) env.NODE_ENV = 'production'
    else Reflect.deleteProperty(env, 'NODE_ENV')
    // as the tree's own npm scripts run tsx (a tree whose database client imports 'server-only' needs react-server)
    const scripts = JSON.stringify((JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts?: unknown }).scripts ?? {})
    const conditions = scripts.includes('--conditions=react-server') ? ['--conditions=react-server'] : []
    const child = spawn(path.join(dir, 'node_modules', '.bin', 'tsx'), [...conditions, PROFILE, ...args, '--json', json, '--label', label], {
      cwd: dir,
      env,
      stdio: ['ignore', out, out],
    })
    child.on('error', reject)
    child.on('exit', code => {
      fs.closeSync(out)
      if (code !== 0) {
        const text = fs.readFileSync(log, 'utf8')
        const reason = text.split('\n').find(l => /^\w*Error\b|^Error:/.test(l.trim()))?.trim() ?? `exit ${code}`
        return reject(new Error(`${reason} (log ${log})`))
      }
      resolve(JSON.parse(fs.readFileSync(json, 'utf8')) as ProfileResult)
    })
  })
}

export async function compareTrees(options: { before: string; after?: string; rounds?: number; balanced?: boolean; args?: string[] }): Promise<void> {
  const before = path.resolve(options.before)
  const after = path.resolve(options.after ?? ROOT)
  const rounds = options.rounds ?? 2
  const args = options.args ?? []
  if (before === after) throw new Error('--compare needs another tree than this one')
  for (const dir of [before, after]) prepareTree(dir)
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-compare-'))
  const trees = [
    { key: 'before', dir: before, state: treeState(before), runs: [] as ProfileResult[], errors: [] as string[] },
    { key: 'after', dir: after, state: treeState(after), runs: [] as ProfileResult[], errors: [] as string[] },
  ]
  const started = Date.now()
  let n = 0
  for (let round = 1; round <= rounds; round++) {
    for (const tree of options.balanced && round % 2 === 0 ? [...trees].reverse() : trees) {
      n++
      const label = `${tree.key} #${round}`
      const base = path.join(work, `${tree.key}-${round}`)
      const t0 = Date.now()
      let r: ProfileResult
      try {
        r = await runProfile(tree.dir, label, args, `${base}.json`, `${base}.log`)
      } catch (error) {
        // a tree in the middle of a refactor may not load: the other tree's runs still make a table
        tree.errors.push(`${label}: ${error instanceof Error ? error.message : String(error)}`)
        console.error(`run ${n}/${rounds * 2}: ${label} FAILED (${tree.state}); see ${base}.log`)
        continue
      }
      tree.runs.push(r)
      const total = r.upsert.wallMs + r.drain.wallMs
      console.error(
        `run ${n}/${rounds * 2}: ${label} (${tree.state}): ${r.chunks} chunks, ${f(r.chunks / (total / 1000), 0)} chunks/s, ` +
          `${f((r.upsert.cpuMs + r.drain.cpuMs) / r.chunks)} ms CPU/chunk, ${f((Date.now() - t0) / 1000, 0)} s (log ${base}.log)`,
      )
    }
  }
  const minutes = (Date.now() - started) / 60_000
  const command = ['npm run bench:ingest-profile -- --compare', before, '--rounds', String(rounds), ...(options.balanced ? ['--balanced'] : []), ...args].join(' ')
  console.log(renderComparison(trees, minutes, command, options.balanced))
  console.log(`\nPer-run output and JSON: ${work}`)
}

type Tree = { key: string; dir: string; state: string; runs: ProfileResult[]; errors: string[] }

type Row = (name: string, value: (r: ProfileResult) => number, digits?: number, bold?: boolean) => void

/** A row of the table: the mean and each run of both trees, and after/before. */
function rowWriter(out: string[], b: Tree, a: Tree): Row {
  return (name, value, digits = 2, bold = false) => {
    const vb = b.runs.map(value)
    const va = a.runs.map(value)
    const cell = (xs: number[]) =>
      xs.length === 0 ? 'did not run' : `${bold ? '**' : ''}${f(mean(xs), digits)}${bold ? '**' : ''} (${xs.map(x => f(x, digits)).join(', ')})`
    const ratio = vb.length && va.length ? mean(va) / mean(vb) : NaN
    out.push(`| ${name} | ${cell(vb)} | ${cell(va)} | ${Number.isFinite(ratio) && mean(vb) !== 0 ? f(ratio) : '–'} |`)
  }
}

function comparisonIntro(b: Tree, a: Tree, first: ProfileResult, minutes: number, command: string, balanced: boolean): string[] {
  const out: string[] = []
  out.push(`### Ingest profile, before and after, alternated in one session`)
  out.push('')
  out.push(
    `Command: \`${command}\` ` +
      `(${f(minutes, 1)} minutes; ${b.runs.length} + ${a.runs.length} runs). Runs alternated ${balanced ? 'before, after, after, before, before…' : 'before, after, before, after…'}; each a fresh process and a fresh PGlite DATA_DIR.`,
  )
  out.push('')
  for (const t of [b, a]) {
    // a tree being edited may change between its runs: each run records the state it ran on
    const states = [...new Set(t.runs.map(r => r.state))]
    const measured = states.length > 1 ? `${t.runs.map(r => `${r.label.split(' ').pop()} on ${r.state}`).join('; ')} (**the tree changed between runs**)` : (states[0] ?? t.state)
    out.push(`- **${t.key}**: \`${t.dir}\`, measured on ${measured}${t.errors.length ? ` — **${t.errors.length} run(s) failed**: ${t.errors.join('; ')}` : ''}`)
  }
  out.push(
    `- ${first.docs.toLocaleString('en')} SciFact abstracts (title + text, ${f(first.textMB, 1)} MB), upserts of ${first.options.batch} documents, ` +
      `drainQueue with ${first.concurrency} lanes, ${embeddingsOf(first)}; ${first.options.noProfile ? 'no profiler' : `profile sampling every ${first.options.intervalUs} µs`}`,
  )
  out.push(`- machine: ${first.machine} (nproc ${first.nproc}); load average at each run's start: ${[...b.runs, ...a.runs].sort((x, y) => x.finishedAt.localeCompare(y.finishedAt)).map(r => r.load[0]).join(', ')}`)
  out.push('')
  out.push('Each cell: the mean, then each run in parentheses.')
  out.push('')
  out.push(`| | before | after | after/before |`)
  out.push('|---|---|---|---|')
  return out
}

const perChunk = (ms: (r: ProfileResult) => number) => (r: ProfileResult) => ms(r) / r.chunks

/** Wall time, rates, CPU per chunk, and the drain's main-thread CPU by category. */
function throughputRows(out: string[], row: Row, runs: ProfileResult[]): void {
  row('chunks', r => r.chunks, 0)
  row('upsert wall (s)', r => r.upsert.wallMs / 1000)
  row('drain wall (s)', r => r.drain.wallMs / 1000)
  row('chunks/s, upsert → synched', r => r.chunks / ((r.upsert.wallMs + r.drain.wallMs) / 1000), 0, true)
  row('chunks/s, drain alone', r => r.chunks / (r.drain.wallMs / 1000), 0)
  row('CPU ms/chunk, process, upsert + drain', perChunk(r => r.upsert.cpuMs + r.drain.cpuMs), 2, true)
  row('… user (the process in user mode: JavaScript, PostgreSQL in WebAssembly)', perChunk(r => r.upsert.userMs + r.drain.userMs))
  row('… system (the kernel for the process: files, sockets, memory)', perChunk(r => r.upsert.systemMs + r.drain.systemMs))
  row('CPU ms/chunk, process, upsert', perChunk(r => r.upsert.cpuMs))
  row('CPU ms/chunk, process, drain', perChunk(r => r.drain.cpuMs))
  row('… drain, main thread', perChunk(r => r.drain.mainThreadMs))
  row('… drain, other threads (GC helpers, JIT, libuv)', perChunk(r => r.drain.cpuMs - r.drain.mainThreadMs))
  out.push(`| *drain, main-thread CPU by category (ms/chunk; profile shares × the main thread's CPU)* | | | |`)
  for (const [key, label] of CATEGORIES) {
    if (runs.every(r => categoryCpuMs(r.drain, key) / r.chunks < 0.005)) continue
    row(label, perChunk(r => categoryCpuMs(r.drain, key)))
  }
  row('*main thread idle, wall (waiting on the embeddings server, files)*', perChunk(r => r.drain.profile.ms.idle ?? 0))
}

/** The time inside PostgreSQL per statement, the upsert's largest categories, and the SQL experiment. */
function databaseRows(out: string[], row: Row, runs: ProfileResult[], first: ProfileResult): void {
  const inEngine = (r: ProfileResult, match: (sql: string) => boolean) => statementCpuMs(r.drain, match)
  row("*drain, CPU inside PostgreSQL's main loop, per statement (synchronous calls timed, scaled like the categories)*", perChunk(r => inEngine(r, () => true)))
  row('… of which `INSERT INTO "Chunk"`', perChunk(r => inEngine(r, sql => sql.startsWith('INSERT INTO "Chunk"'))))
  row('… of which the other statements (claims, leases, reads, updates)', perChunk(r => inEngine(r, sql => !sql.startsWith('INSERT INTO "Chunk"'))))
  out.push(`| *upsert, main-thread CPU by category (ms/chunk), the largest* | | | |`)
  for (const key of ['prisma', 'db-wasm', 'db-js', 'load', 'gc']) {
    const label = CATEGORIES.find(c => c[0] === key)![1]
    row(label, perChunk(r => categoryCpuMs(r.upsert, key)))
  }
  if (first.sql) {
    out.push(`| *SQL experiment: the same chunk rows inserted into copies of "Chunk" (main-thread CPU ms/chunk)* | | | |`)
    // the variants of every run (a tree with more triggers has one more)
    const keys = new Map<string, string>()
    for (const r of runs) for (const d of sqlDeltas(r)) if (!keys.has(d.key)) keys.set(d.key, d.attributed)
    const order = ['bare', 'btree', 'tsv', 'gin', 'hnsw', 'triggers', 'fk']
    for (const [key, attributed] of [...keys].sort((x, y) => order.indexOf(x[0]) - order.indexOf(y[0]))) {
      row(attributed, r => sqlDeltas(r).find(d => d.key === key)?.deltaCpu ?? NaN)
    }
    row('= a chunk INSERT into the real table', r => sqlDeltas(r).at(-1)?.cpuPerChunk ?? NaN)
  }
}

export function renderComparison(trees: Tree[], minutes: number, command: string, balanced = false): string {
  const [b, a] = trees
  const first = b.runs[0] ?? a.runs[0]
  if (!first) return `No run succeeded:\n${[...b.errors, ...a.errors].map(e => `- ${e}`).join('\n')}`
  const out = comparisonIntro(b, a, first, minutes, command, balanced)
  const row = rowWriter(out, b, a)
  throughputRows(out, row, [...b.runs, ...a.runs])
  databaseRows(out, row, [...b.runs, ...a.runs], first)
  return out.join('\n')
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const [dir, ...rest] = process.argv.slice(2)
  const rounds = rest.includes('--rounds') ? Number(rest[rest.indexOf('--rounds') + 1]) : 2
  const balanced = rest.includes('--balanced')
  const args = rest.filter((_, i) => rest[i] !== '--rounds' && rest[i - 1] !== '--rounds' && rest[i] !== '--balanced')
  if (!dir) {
    console.error('usage: tsx scripts/bench/ingest-compare.ts BEFORE_DIR [--rounds N] [--balanced] [--docs N …]')
    process.exit(2)
  }
  compareTrees({ before: dir, rounds, balanced, args })
    .then(() => process.exit(0))
    .catch(error => {
      console.error(error)
      process.exit(1)
    })
}
