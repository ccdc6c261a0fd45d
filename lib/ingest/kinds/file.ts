import { documentSource, type DocumentKind } from './kind'
import { loadStoredOriginal } from './stored-original'

/** An uploaded file of an accepted type (lib/domain/file-types.ts); its original is in the blob store. */
export const fileKind: DocumentKind<'file'> = {
  type: 'file',
  sync: 'document',
  creation: { via: 'multipart' },
  batched: true,
  // {fileName, mimeType, size} are public; sha256 (duplicate detection, lib/datastores/duplicates.ts) is not shown
  publicFields: ['fileName', 'mimeType', 'size'],
  sourceOf: documentSource,
  readsStoredOriginal: true,
  extract: (job, signal, stored) => loadStoredOriginal(job, signal, stored),
  noTextMessage: 'The file has no text',
}
