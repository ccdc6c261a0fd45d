// `npm run bench:ingest -- --compare DIR [--rounds N]`: upsert → synched throughput (scripts/bench/ingest.ts) of two
// trees in one session: the tree "before" (DIR, e.g. a clone at an earlier commit, with node_modules) and this one
// ("after"), alternated before, after, after, before… (N rounds, 3 by default), each run a child process in its
// tree's own directory on a fresh database. This tree's ingest.ts is copied into DIR first, so both measure alike;
// the BENCH_* variables reach both. Prints each run, then a Markdown table of the means and after/before.
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const ROOT = path.resolve(import.meta.dirname, '..', '..')
const SCRIPT = path.join('scripts', 'bench', 'ingest.ts')

interface Row {
  chunks: number
  upsert_s: number
  sync_s: number
  total_s: number
  chunks_per_s: number
  cpu_ms_per_chunk: number
  user_ms_per_chunk: number
  system_ms_per_chunk: number
  load_at_start: number
}

function prepare(dir: string): void {
  if (!fs.existsSync(path.join(dir, 'node_modules', '.bin', 'tsx'))) throw new Error(`${dir} has no node_modules/.bin/tsx`)
  if (path.resolve(dir) !== ROOT) fs.copyFileSync(path.join(ROOT, SCRIPT), path.join(dir, SCRIPT))
  const r = spawnSync(process.execPath, ['scripts/prepare.mjs'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] })
  if (r.status !== 0) throw new Error(`scripts/prepare.mjs failed in ${dir}`)
}

function runOnce(dir: string): Promise<Row> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env }
    for (const key of ['DATABASE_URL', 'DATA_DIR', 'WORKER']) delete env[key]
    const child = spawn(path.join(dir, 'node_modules', '.bin', 'tsx'), ['--conditions=react-server', 'scripts/bench.ts', 'ingest'], { cwd: dir, env })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (out += d.toString()))
    child.on('error', reject)
    child.on('exit', code => {
      const line = out.split('\n').find(l => l.startsWith('{"documents"'))
      if (code !== 0 || !line) return reject(new Error(`bench:ingest failed in ${dir} (exit ${code}):\n${out.slice(-2000)}`))
      resolve(JSON.parse(line) as Row)
    })
  })
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length

export async function compareThroughput(argv: string[]): Promise<void> {
  const before = path.resolve(argv[argv.indexOf('--compare') + 1] ?? '')
  const rounds = argv.includes('--rounds') ? Math.max(1, Number(argv[argv.indexOf('--rounds') + 1])) : 3
  if (before === ROOT || !fs.existsSync(before)) throw new Error('--compare needs another tree than this one')
  for (const dir of [before, ROOT]) prepare(dir)
  const trees = [
    { key: 'before', dir: before, runs: [] as Row[] },
    { key: 'after', dir: ROOT, runs: [] as Row[] },
  ]
  const started = Date.now()
  const loads: number[] = []
  for (let round = 1; round <= rounds; round++) {
    for (const tree of round % 2 === 0 ? [...trees].reverse() : trees) {
      const row = await runOnce(tree.dir)
      tree.runs.push(row)
      loads.push(row.load_at_start)
      console.error(`${tree.key} #${tree.runs.length}: ${JSON.stringify(row)}`)
    }
  }
  const [b, a] = trees
  const line = (name: string, value: (r: Row) => number, digits = 2) => {
    const cell = (runs: Row[]) => `${mean(runs.map(value)).toFixed(digits)} (${runs.map(r => value(r).toFixed(digits)).join(', ')})`
    return `| ${name} | ${cell(b.runs)} | ${cell(a.runs)} | ${(mean(a.runs.map(value)) / mean(b.runs.map(value))).toFixed(2)} |`
  }
  const settings = ['BENCH_FORMAT', 'BENCH_DOCS', 'BENCH_DOC_WORDS', 'BENCH_PDF_PAGE_WORDS', 'BENCH_BATCH', 'BENCH_CONCURRENCY', 'BENCH_NO_EMBEDDINGS'].filter(k => process.env[k]).map(k => `${k}=${process.env[k]}`)
  console.log(
    [
      `Command: \`${[...settings, 'npm run bench:ingest -- --compare', before, '--rounds', String(rounds)].join(' ')}\` ` +
        `(${((Date.now() - started) / 60_000).toFixed(1)} minutes; before, after, after, before…; load average at each run's start: ` +
        `${loads.join(', ')})`,
      '',
      '| | before | after | after/before |',
      '|---|---|---|---|',
      line('chunks', r => r.chunks, 0),
      line('upsert (HTTP) s', r => r.upsert_s),
      line('sync s', r => r.sync_s),
      line('**chunks/s**, upsert → synched', r => r.chunks_per_s, 0),
      line('**CPU ms/chunk** (this process)', r => r.cpu_ms_per_chunk),
      line('… user', r => r.user_ms_per_chunk),
      line('… system', r => r.system_ms_per_chunk),
    ].join('\n'),
  )
}
