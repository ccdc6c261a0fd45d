import { config } from '@/lib/config'
import { logger } from '@/lib/logger'
import { messageOf, permanentError } from '../../errors'
import { joinLines } from '../lines'
import { ocrLanguageFor } from './languages'
import { recognitionPool, RecognitionFailed } from './pool'

export { installedOcrLanguages, ocrLanguageFor } from './languages'
export { recognitionPool } from './pool'

/**
 * What a loader needs to recognise text in images (OCR). Only the sync worker passes one: reading an original on a
 * request path (the dashboard's "extracted text") never pays for recognition.
 */
export interface OcrRequest {
  /** The datastore's language (lib/domain/languages.ts), asked only when some text must be recognised. */
  language(): Promise<string>
  signal?: AbortSignal
  /** Called as pages are recognised: done of total (the pages that needed it). */
  onProgress?(done: number, total: number): Promise<void> | void
}

/**
 * The text of each of `pages` (page numbers), whose images `imageOf` makes when its turn comes, recognised
 * OCR_CONCURRENCY at a time, each within OCR_PAGE_TIMEOUT_SECONDS. A page that cannot be read fails the whole
 * file with a reason naming it (`describe`).
 */
export async function recognisePages(
  pages: number[],
  imageOf: (page: number) => Promise<Uint8Array>,
  ocr: OcrRequest,
  describe: (page: number) => string,
): Promise<Map<number, string>> {
  const language = ocrLanguageFor(await ocr.language())
  const timeoutMs = config().OCR_PAGE_TIMEOUT_SECONDS * 1000
  const texts = new Map<number, string>()
  let next = 0
  await progress(ocr, 0, pages.length)
  const lane = async () => {
    while (next < pages.length) {
      const page = pages[next++]
      ocr.signal?.throwIfAborted()
      try {
        texts.set(page, await recognitionPool().recognise(await imageOf(page), language, { timeoutMs, signal: ocr.signal }))
      } catch (error) {
        if (ocr.signal?.aborted) throw error
        const reason = error instanceof RecognitionFailed ? error.message : messageOf(error)
        throw permanentError(`${describe(page)} could not be read: ${reason}`, error)
      }
      await progress(ocr, texts.size, pages.length)
    }
  }
  await Promise.all(Array.from({ length: Math.min(config().OCR_CONCURRENCY, pages.length) }, lane))
  return texts
}

// progress is for people watching: failing to record it never fails the file
async function progress(ocr: OcrRequest, done: number, total: number): Promise<void> {
  try {
    await ocr.onProgress?.(done, total)
  } catch (error) {
    logger.warn('OCR progress not recorded', { error: messageOf(error) })
  }
}

/** Recognised text as a loader keeps it: lines of a paragraph joined (as a PDF's), at most one blank line between paragraphs. */
export function tidyRecognised(text: string): string {
  return joinLines(text.replace(/[ \t]+\n/g, '\n'))
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}
