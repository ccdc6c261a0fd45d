import { getResolvedPDFJS, renderPageAsImage, type getDocumentProxy } from 'unpdf'
import { messageOf, permanentError } from '../errors'
import { MAX_OCR_PAGES } from '../limits'
import { recognisePages, tidyRecognised, type OcrRequest } from './ocr'

type Pdf = Awaited<ReturnType<typeof getDocumentProxy>>

/** A page with fewer characters than this in its text layer (a page number, a stamp) may be a scan. */
const MIN_TEXT_LAYER_CHARS = 20
/** Drawing operations (paths) that make a page worth recognising without an image: text turned into outlines. */
const MIN_PATHS = 20
/** Rendering: about 180 dpi, at most this many pixels on the longer side. */
const RENDER_SCALE = 2.5
const MAX_RENDER_SIDE = 4000

/**
 * The page texts with those of scanned pages recognised (OCR): a page whose text layer is (almost) empty but that
 * draws an image or many shapes is rendered and read. A PDF whose pages all have text is returned as it is,
 * without rendering or even looking at its drawings, so text PDFs cost what they did.
 */
export async function withScannedPagesRead(pdf: Pdf, texts: string[], ocr: OcrRequest | undefined): Promise<{ texts: string[]; recognised: Set<number> }> {
  const recognised = new Set<number>()
  const sparse = sparsePages(texts)
  if (!ocr || sparse.length === 0) return { texts, recognised }
  const scans: number[] = []
  for (const page of sparse) if (await drawsSomething(pdf, page)) scans.push(page)
  if (scans.length === 0) return { texts, recognised }
  if (scans.length > MAX_OCR_PAGES) throw permanentError(`The PDF has ${scans.length} scanned pages; the text of at most ${MAX_OCR_PAGES.toLocaleString('en')} is recognised`)
  const read = await recognisePages(scans, page => renderPage(pdf, page), ocr, page => `Page ${page}`)
  const result = [...texts]
  for (const [page, text] of read) {
    const tidy = tidyRecognised(text)
    // the layer's few characters are in the picture too, so the recognised text replaces them when it says more
    if (tidy.length > result[page - 1].trim().length) {
      result[page - 1] = tidy
      recognised.add(page)
    }
  }
  return { texts: result, recognised }
}

/** The pages (from 1) whose text layer is (almost) empty: the only ones that may need recognition. */
export function sparsePages(texts: string[]): number[] {
  return texts.flatMap((text, i) => (text.replace(/\s+/g, '').length < MIN_TEXT_LAYER_CHARS ? [i + 1] : []))
}

async function drawsSomething(pdf: Pdf, pageNumber: number): Promise<boolean> {
  const { OPS } = await getResolvedPDFJS()
  const images = new Set<number>([
    OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject, OPS.paintImageXObjectRepeat,
    OPS.paintInlineImageXObjectGroup, OPS.paintImageMaskXObjectGroup, OPS.paintImageMaskXObjectRepeat,
  ])
  const page = await pdf.getPage(pageNumber)
  try {
    const { fnArray } = await page.getOperatorList()
    return fnArray.some(fn => images.has(fn)) || fnArray.filter(fn => fn === OPS.constructPath).length >= MIN_PATHS
  } finally {
    page.cleanup()
  }
}

/** A page as a PNG for recognition (PDF.js drawing on @napi-rs/canvas, a prebuilt Skia: no system libraries). */
async function renderPage(pdf: Pdf, pageNumber: number): Promise<Uint8Array> {
  try {
    const page = await pdf.getPage(pageNumber)
    const { width, height } = page.getViewport({ scale: 1 })
    const scale = Math.min(RENDER_SCALE, MAX_RENDER_SIDE / Math.max(width, height, 1))
    const png = await renderPageAsImage(pdf, pageNumber, { canvasImport: () => import('@napi-rs/canvas'), scale })
    return new Uint8Array(png)
  } catch (error) {
    throw permanentError(`Page ${pageNumber} could not be drawn for text recognition: ${messageOf(error)}`, error)
  }
}
