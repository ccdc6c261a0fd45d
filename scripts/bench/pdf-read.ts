// `npm run bench -- pdf-read [--compare DIR] [--rounds N]`: the CPU of reading text PDFs alone, through the tree's
// own loadOriginal (lib/ingest/loaders) with text recognition offered, as the worker calls it: issue 26's "text PDFs
// no slower" isolated from the HTTP upload and the chunk writes that bench:ingest also counts. BENCH_PDF_FILES
// (default 200) three-page PDFs of README text, made with pdf-lib; the first 20 reads warm PDF.js in both trees alike.
// With --compare DIR (a clone at an earlier commit, with node_modules), this file is copied there and both trees
// run alternately (before, after, after, before…), each in its own process; prints the runs and a Markdown table.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const ROOT = path.resolve(import.meta.dirname, '..', '..')
const SELF = path.join('scripts', 'bench', 'pdf-read.ts')

interface Result {
  cpu_ms_per_pdf: number
  wall_ms_per_pdf: number
  load_at_start: number
}

export async function run(argv: string[] = []): Promise<void> {
  const files = argv.includes('--files') ? argv[argv.indexOf('--files') + 1] : await writePdfs()
  if (argv.includes('--compare')) return compare(path.resolve(argv[argv.indexOf('--compare') + 1] ?? ''), files, roundsOf(argv))
  console.log(JSON.stringify(await readAll(files)))
}

const roundsOf = (argv: string[]) => (argv.includes('--rounds') ? Math.max(1, Number(argv[argv.indexOf('--rounds') + 1])) : 3)

async function writePdfs(): Promise<string> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib')
  const words = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').replace(/[^\x20-\x7e]/g, ' ').split(/\s+/).filter(Boolean)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pdf-read-'))
  const count = Number(process.env.BENCH_PDF_FILES ?? 200)
  for (let d = 0; d < count; d++) {
    const doc = await PDFDocument.create()
    const font = await doc.embedFont(StandardFonts.Helvetica)
    for (let p = 0; p < 3; p++) {
      const start = ((d * 3 + p) * 250) % (words.length - 250)
      doc.addPage([595, 842]).drawText(words.slice(start, start + 250).join(' '), { x: 50, y: 790, size: 10, font, maxWidth: 495, lineHeight: 13 })
    }
    fs.writeFileSync(path.join(dir, `${d}.pdf`), await doc.save())
  }
  return dir
}

async function readAll(dir: string): Promise<Result> {
  const load_at_start = os.loadavg()[0]
  const { loadOriginal } = (await import(path.join(process.cwd(), 'lib/ingest/loaders/index.ts'))) as {
    loadOriginal: (data: Uint8Array, type: string, options?: object) => Promise<unknown>
  }
  const pdfs = fs.readdirSync(dir).map(f => new Uint8Array(fs.readFileSync(path.join(dir, f))))
  const ocr = { language: async () => 'en' } // offered as the worker offers it; text pages never use it
  for (const pdf of pdfs.slice(0, 20)) await loadOriginal(pdf, 'application/pdf', { ocr })
  const cpu = process.cpuUsage()
  const started = performance.now()
  for (const pdf of pdfs) await loadOriginal(pdf, 'application/pdf', { ocr })
  const used = process.cpuUsage(cpu)
  const round = (n: number) => Math.round(n * 100) / 100
  return { cpu_ms_per_pdf: round((used.user + used.system) / 1000 / pdfs.length), wall_ms_per_pdf: round((performance.now() - started) / pdfs.length), load_at_start: round(load_at_start) }
}

function runIn(dir: string, files: string): Result {
  const r = spawnSync(path.join(dir, 'node_modules', '.bin', 'tsx'), ['--conditions=react-server', 'scripts/bench.ts', 'pdf-read', '--files', files], { cwd: dir, encoding: 'utf8' })
  const line = r.stdout.split('\n').find(l => l.startsWith('{"cpu_ms_per_pdf"'))
  if (r.status !== 0 || !line) throw new Error(`pdf-read failed in ${dir}:\n${(r.stdout + r.stderr).slice(-2000)}`)
  return JSON.parse(line) as Result
}

function compare(before: string, files: string, rounds: number): void {
  if (before === ROOT || !fs.existsSync(path.join(before, 'node_modules', '.bin', 'tsx'))) throw new Error('--compare needs another tree with node_modules')
  fs.copyFileSync(path.join(ROOT, SELF), path.join(before, SELF))
  const benchList = fs.readFileSync(path.join(before, 'scripts', 'bench.ts'), 'utf8')
  if (!benchList.includes("'pdf-read'")) fs.writeFileSync(path.join(before, 'scripts', 'bench.ts'), benchList.replace("const ON_REQUEST = [", "const ON_REQUEST = ['pdf-read', "))
  const runs: Record<'before' | 'after', Result[]> = { before: [], after: [] }
  for (let round = 1; round <= rounds; round++) {
    const order: ['before' | 'after', string][] = [['before', before], ['after', ROOT]]
    for (const [key, dir] of round % 2 === 0 ? order.reverse() : order) {
      runs[key].push(runIn(dir, files))
      console.error(`${key} #${runs[key].length}: ${JSON.stringify(runs[key].at(-1))}`)
    }
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
  const row = (name: string, pick: (r: Result) => number) => {
    const cell = (rs: Result[]) => `${mean(rs.map(pick)).toFixed(2)} (${rs.map(r => pick(r).toFixed(2)).join(', ')})`
    return `| ${name} | ${cell(runs.before)} | ${cell(runs.after)} | ${(mean(runs.after.map(pick)) / mean(runs.before.map(pick))).toFixed(2)} |`
  }
  console.log([
    `Command: \`npm run bench -- pdf-read --compare ${before} --rounds ${rounds}\` (load average at each run's start: ${[...runs.before, ...runs.after].map(r => r.load_at_start).join(', ')})`,
    '',
    '| | before | after | after/before |',
    '|---|---|---|---|',
    row('**CPU ms a PDF** (3 text pages)', r => r.cpu_ms_per_pdf),
    row('wall ms a PDF', r => r.wall_ms_per_pdf),
  ].join('\n'))
}
