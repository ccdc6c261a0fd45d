import mammoth from 'mammoth'
import { logger } from '@/lib/logger'
import { messageOf, permanentError } from '../errors'
import type { Section } from '../sections'
import { readDocxText, ThreadsUnavailable, type DocxText } from './reading-threads'
import { openCheckedZip } from './zip-guard'

/** DOCX (mammoth, in a worker thread: reading-threads.ts): the document's text, paragraphs separated by blank lines. */
export async function loadDocx(data: Uint8Array): Promise<Section[]> {
  await openCheckedZip(data, 'DOCX')
  const read = await readText(data)
  if (read.kind === 'unreadable') throw permanentError(`The DOCX file could not be read: ${read.message}`)
  return [{ text: read.text, metadata: {} }]
}

let threadsUnavailable = false

async function readText(data: Uint8Array): Promise<DocxText> {
  if (!threadsUnavailable) {
    try {
      return await readDocxText(data)
    } catch (error) {
      if (!(error instanceof ThreadsUnavailable)) throw error
      threadsUnavailable = true
      logger.warn('DOCX files are read in-process: the reading thread could not load mammoth', { reason: error.message })
    }
  }
  try {
    return { kind: 'text', text: (await mammoth.extractRawText({ buffer: Buffer.from(data) })).value }
  } catch (error) {
    return { kind: 'unreadable', name: (error as Error)?.name ?? 'Error', message: messageOf(error) }
  }
}
