// Scanned pages for the OCR tests: text drawn by a real browser (Chromium through playwright-core) into a PNG or a
// JPEG, as a phone or a scanner would give it, and PDFs whose pages are only such images.
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { chromium, type Browser } from 'playwright-core'
import { chromiumPath, CHROMIUM_ARGS } from '@/lib/ingest/web/render/chromium'

let browser: Browser | undefined

async function page() {
  browser ??= await chromium.launch({ executablePath: chromiumPath() ?? '/usr/bin/chromium', args: CHROMIUM_ARGS })
  return browser.newPage({ viewport: { width: 1000, height: 700 } })
}

export async function closeScanner(): Promise<void> {
  await browser?.close()
  browser = undefined
}

/** A picture of a printed page with these paragraphs (a title first). */
export async function scanOf(paragraphs: string[], type: 'png' | 'jpeg' = 'png'): Promise<Uint8Array> {
  const tab = await page()
  try {
    const [title, ...rest] = paragraphs.map(p => p.replace(/[<&]/g, c => (c === '<' ? '&lt;' : '&amp;')))
    await tab.setContent(
      `<body style="margin:0;padding:48px;background:#fff;color:#111;font:26px/1.5 'DejaVu Serif',serif">` +
        `<h1 style="font-size:34px">${title}</h1>${rest.map(p => `<p>${p}</p>`).join('')}</body>`,
    )
    return new Uint8Array(await tab.screenshot({ type, fullPage: true, ...(type === 'jpeg' ? { quality: 85 } : {}) }))
  } finally {
    await tab.close()
  }
}

/** A PDF of pages that are either text (a text layer, as a word processor writes) or a scanned image (no text layer). */
export async function pdfOf(pages: ({ text: string } | { scan: Uint8Array })[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  for (const content of pages) {
    if ('text' in content) {
      doc.addPage([595, 842]).drawText(content.text, { x: 50, y: 780, size: 12, font, maxWidth: 495, lineHeight: 16 })
      continue
    }
    const image = await doc.embedPng(content.scan)
    const [width, height] = [image.width * 0.6, image.height * 0.6]
    doc.addPage([width, height]).drawImage(image, { x: 0, y: 0, width, height })
  }
  return doc.save()
}
