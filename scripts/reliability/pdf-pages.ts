// How long the PDF loader takes on a PDF of N blank pages (N ≤ MAX_PDF_PAGES is read, above is refused by count):
//   node --conditions=react-server --import tsx scripts/reliability/pdf-pages.ts [pages=5000]
import { PDFDocument } from 'pdf-lib'
import { loadPdf } from '@/lib/ingest/loaders/pdf'

const pages = Number(process.argv[2] ?? 5000)
const pdf = await PDFDocument.create()
for (let i = 0; i < pages; i++) pdf.addPage([200, 200]).drawText(i % 2 ? `Page ${i}` : '', { x: 10, y: 10, size: 8 })
const bytes = await pdf.save()
const rss = process.memoryUsage.rss()
const started = performance.now()
let outcome: string
try {
  const sections = await loadPdf(bytes)
  outcome = `${sections.length} sections`
} catch (error) {
  outcome = `refused: ${(error as Error).message}`
}
console.log(JSON.stringify({ pages, bytes: bytes.length, ms: Math.round(performance.now() - started), rssGrowthMb: Math.round((process.memoryUsage.rss() - rss) / 1048576), outcome }))
