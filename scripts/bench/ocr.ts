// `npm run bench:ocr`: text recognition speed on scanned pages, as the sync worker reads them (lib/ingest/loaders):
// a page of text drawn by Chromium (tests/helpers/scans.ts, ~120 words, 1000 px wide), as a PNG and as an image-only
// PDF page (rendered again at ~180 dpi), BENCH_OCR_PAGES pages each (default 12), OCR_CONCURRENCY engines (default 1).
// Prints pages/s, and the character error rate of the recognised text against the text drawn.
import os from 'node:os'
import { config } from '@/lib/config'
import { loadOriginal } from '@/lib/ingest/loaders'
import { recognitionPool } from '@/lib/ingest/loaders/ocr'
import { closeScanner, pdfOf, scanOf } from '@/tests/helpers/scans'
import { envInt, machine, round } from './datastore-support'

const PARAGRAPHS = [
  'Descaling and warranty notice',
  'Descale the kettle every month with citric acid or white vinegar. Fill it to the maximum mark, boil, and leave the solution for twenty minutes before rinsing twice with clean water.',
  'The warranty covers manufacturing defects for two years from the date of purchase. Claims need the original receipt and the serial number printed under the base.',
  'Do not immerse the base in water. Unplug the kettle before cleaning it, and keep the cord away from hot surfaces. Children must not use the appliance without supervision.',
  'Spare lids, filters and bases can be ordered from the service centre by phone on weekdays between nine and five, or by writing to the address on the back of this leaflet.',
]

/** Levenshtein distance over characters, whitespace collapsed: the character error rate's numerator. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    previous = current
  }
  return previous[b.length]
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim()

export async function run(): Promise<void> {
  const pages = envInt('BENCH_OCR_PAGES', 12)
  const load = round(os.loadavg()[0], 1)
  const png = await scanOf(PARAGRAPHS)
  const pdf = await pdfOf(Array.from({ length: pages }, () => ({ scan: png })))
  await closeScanner()
  const ocr = { language: async () => 'english' }
  // the engine's start (~0.5 s, once per process and language) is not a page's cost
  await loadOriginal(png, 'image/png', { ocr })
  const rows: Record<string, unknown>[] = []
  for (const [name, read] of [
    ['PNG image', async () => (await Promise.all(Array.from({ length: pages }, () => loadOriginal(png, 'image/png', { ocr })))).flat()],
    ['image-only PDF page', () => loadOriginal(pdf, 'application/pdf', { ocr })],
  ] as const) {
    const started = performance.now()
    const cpu = process.cpuUsage()
    const sections = await read()
    const seconds = (performance.now() - started) / 1000
    const used = process.cpuUsage(cpu)
    const expected = squash(PARAGRAPHS.join(' '))
    const cer = sections.reduce((n, s) => n + editDistance(squash(s.text), expected), 0) / (expected.length * sections.length)
    rows.push({ input: name, pages: sections.length, seconds: round(seconds, 2), pages_per_s: round(sections.length / seconds, 2), cpu_s_per_page: round((used.user + used.system) / 1e6 / sections.length, 2), character_error_rate: round(cer, 4), concurrency: config().OCR_CONCURRENCY, load_at_start: load })
  }
  await recognitionPool().close()
  for (const row of rows) console.log(JSON.stringify(row))
  console.log(`\nmachine: ${machine()}`)
  console.log('| input | pages | pages/s | CPU s/page (this process) | character error rate |')
  console.log('|---|---|---|---|---|')
  for (const r of rows) console.log(`| ${r.input} | ${r.pages} | ${r.pages_per_s} | ${r.cpu_s_per_page} | ${r.character_error_rate} |`)
}
