import type { ChunkPage, ExtractedText } from '@/lib/domain/datastores'
import type { TenantContext } from '@/lib/domain/tenant'
import { readOriginalBlob } from '@/lib/db/blob-store'
import { getPrisma } from '@/lib/db/client'
import { NotFound } from '@/lib/http/errors'
import { loadOriginal } from '@/lib/ingest/loaders'
import { asObject } from '@/lib/ingest/kinds'
import { findDatasource } from './datasources'

// What a datasource holds, as the dashboard's datasource view shows it (README "Content you can see"): its chunks
// with where they come from (page, sheet, slide), the text extracted from its original, and the original itself.

/** A datasource's chunks in order, `limit` at a time after position `after`. NotFound for another tenant's. */
export async function listChunks(ctx: TenantContext, datasourceId: string, query: { limit: number; after?: number }): Promise<ChunkPage> {
  const ds = await findDatasource(ctx, datasourceId)
  const prisma = await getPrisma()
  // the generation searches see (a large re-synchronisation writes the next one hidden, then deletes the old one)
  const where = { datasourceId: ds.id, organizationId: ctx.organizationId, generation: ds.contentGeneration }
  const [rows, total] = await Promise.all([
    prisma.chunk.findMany({
      where: { ...where, ...(query.after !== undefined ? { position: { gt: query.after } } : {}) },
      orderBy: { position: 'asc' },
      take: query.limit + 1,
      select: { id: true, position: true, text: true, tokens: true, metadata: true },
    }),
    prisma.chunk.count({ where }),
  ])
  const items = rows.slice(0, query.limit).map(r => ({ ...r, metadata: asObject(r.metadata) }))
  return { items, nextAfter: rows.length > query.limit ? items[items.length - 1].position : null, total }
}

/** At most this much extracted text is answered at once (a 300-page manual is read in its chunks). */
export const MAX_TEXT_SHOWN = 200_000

/** The text of the datasource's stored original, read again by its loader; a web page has none (its chunks show it). */
export async function extractedText(ctx: TenantContext, datasourceId: string): Promise<ExtractedText> {
  const ds = await findDatasource(ctx, datasourceId)
  const original = await readOriginalBlob(ds.id)
  if (!original) return { sections: null, truncated: false }
  let sections
  try {
    sections = await loadOriginal(original.data, original.contentType)
  } catch {
    // a damaged original: the datasource's error says why
    return { sections: [], truncated: false }
  }
  let room = MAX_TEXT_SHOWN
  const shown = []
  for (const s of sections) {
    if (room <= 0) break
    shown.push({ text: s.text.slice(0, room), metadata: s.metadata })
    room -= s.text.length
  }
  return { sections: shown, truncated: room < 0 || shown.length < sections.length }
}

export interface Original {
  data: Uint8Array
  contentType: string
  fileName: string
}

/** The stored original of a file or text datasource, for download; NotFound for another tenant's or without one. */
export async function readOriginal(ctx: TenantContext, datasourceId: string): Promise<Original> {
  const ds = await findDatasource(ctx, datasourceId)
  const original = await readOriginalBlob(ds.id)
  if (!original) throw new NotFound('Original of this datasource')
  const config = asObject(ds.config)
  const fileName = typeof config.fileName === 'string' ? config.fileName : `${ds.name.replace(/[^\w .-]+/g, '_').slice(0, 100) || 'document'}.txt`
  return { data: original.data, contentType: original.contentType, fileName }
}

/** A Content-Disposition header naming the file, ASCII fallback and UTF-8 name (RFC 6266). */
export function attachmentHeader(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`
}
