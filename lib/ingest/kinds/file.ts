import { documentSource, type DocumentKind } from './kind'
import { loadStoredOriginal } from './stored-original'

/** An uploaded file of one of the eight accepted types; its original is in the blob store. */
export const fileKind: DocumentKind<'file'> = {
  type: 'file',
  sync: 'document',
  creation: { via: 'multipart' },
  batched: true,
  // {fileName, mimeType, size} are public; sha256 (duplicate detection, lib/datastores/duplicates.ts) is not shown
  publicFields: ['fileName', 'mimeType', 'size'],
  sourceOf: documentSource,
  extract: job => loadStoredOriginal(job),
  noTextMessage: 'The file has no text',
}
