import { documentSource, type DocumentKind } from './kind'
import { loadStoredOriginal } from './stored-original'

/** A document upserted as text (POST /api/datastores/upsert/{id}); its text is in the blob store. */
export const textKind: DocumentKind<'text'> = {
  type: 'text',
  sync: 'document',
  creation: { via: 'upsert' },
  batched: true,
  publicFields: [],
  sourceOf: documentSource,
  readsStoredOriginal: true,
  extract: (job, signal, stored) => loadStoredOriginal(job, signal, stored),
  noTextMessage: 'The file has no text',
}
