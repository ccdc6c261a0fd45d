import { BulkBody, ChunkListParams } from '@/lib/datastores/content-schemas'
import type { Operation } from './operations'

// The operations of issue 15's "content you can see": a datasource's chunks, text and original; bulk actions.

const Chunk = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    position: { type: 'integer' },
    text: { type: 'string' },
    tokens: { type: 'integer' },
    metadata: { type: 'object', description: 'Where the chunk comes from: page, sheet, slide, title…' },
  },
  required: ['id', 'position', 'text', 'tokens', 'metadata'],
}

export const DUPLICATES =
  'A file (or document) whose content a datasource of the same datastore already holds is not stored or indexed again: the answer is that datasource with `"duplicate": true` (status 200). `?allowDuplicates=true` indexes a copy anyway.'

export const CONTENT_OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: '/api/datasources/{id}/chunks',
    summary: "A datasource's chunks in order, with where each comes from (page, sheet, slide)",
    tag: 'Datasources',
    auth: 'key',
    query: ChunkListParams,
    response: { type: 'object', properties: { items: { type: 'array', items: Chunk }, nextAfter: { type: ['integer', 'null'] }, total: { type: 'integer' } } },
  },
  {
    method: 'get',
    path: '/api/datasources/{id}/text',
    summary: 'The text extracted from the stored original, in sections (null for a web page)',
    tag: 'Datasources',
    auth: 'key',
    response: { type: 'object', properties: { sections: { type: ['array', 'null'] }, truncated: { type: 'boolean' } } },
  },
  {
    method: 'get',
    path: '/api/datasources/{id}/original',
    summary: 'Download the uploaded file or upserted text as stored (404 for a web page)',
    tag: 'Datasources',
    auth: 'key',
    response: { type: 'string', format: 'binary' },
  },
  {
    method: 'post',
    path: '/api/datastores/{id}/datasources/bulk',
    summary: 'Re-sync or delete many datasources: the ones in `ids`, or every one in `status` ("retry all failed")',
    tag: 'Datasources',
    auth: 'key',
    body: BulkBody,
    response: { type: 'object', properties: { action: { enum: ['synch', 'delete'] }, ids: { type: 'array', items: { type: 'string' } } } },
  },
]
