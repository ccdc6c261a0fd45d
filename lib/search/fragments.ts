import type { SqlDriver } from '@/lib/db/sql-driver'
import type { DatasourceType } from '@/lib/domain/datasources'
import { asObject, kindOf, viewOf } from '@/lib/ingest/kinds'
import type { RankedChunk } from './fulltext'
import type { Fragment } from './types'

// The fragments of ranked chunks: their text, source, datasource and metadata, read after the ranking.

interface FragmentRow {
  id: string
  text: string
  metadata: unknown
  chunk_custom_id: string | null
  datasource_id: string
  datasource_name: string
  datasource_type: DatasourceType
  datasource_config: unknown
  datasource_metadata: unknown
  datasource_custom_id: string | null
}

/** Where the fragment's text can be found, as its datasource's kind says. */
function sourceOf(row: FragmentRow): string {
  return kindOf(row.datasource_type).sourceOf(viewOf({ name: row.datasource_name, config: row.datasource_config, metadata: row.datasource_metadata }))
}

/** The ranked chunks as fragments, in their order, with their scores; a chunk deleted meanwhile is left out. */
export async function readFragments(sql: Pick<SqlDriver, 'query'>, ranked: RankedChunk[]): Promise<Fragment[]> {
  if (ranked.length === 0) return []
  const rows = await sql.query<FragmentRow>(
    `SELECT c.id, c.text, c.metadata, c."custom_id" AS chunk_custom_id, d.id AS datasource_id, d.name AS datasource_name,
            d.type::text AS datasource_type, d.config AS datasource_config, d.metadata AS datasource_metadata,
            d."custom_id" AS datasource_custom_id
     FROM "Chunk" c JOIN "Datasource" d ON d.id = c."datasourceId"
     WHERE c.id = ANY($1::text[])`,
    [ranked.map(f => f.id)],
  )
  const byId = new Map(rows.map(r => [r.id, r]))
  return ranked.flatMap(({ id, score }) => {
    const row = byId.get(id)
    if (!row) return [] // deleted between the ranking and this read
    return [
      {
        text: row.text,
        score,
        source: sourceOf(row),
        datasource_id: row.datasource_id,
        datasource_name: row.datasource_name,
        custom_id: row.datasource_custom_id ?? row.chunk_custom_id,
        metadata: { ...asObject(row.metadata), ...asObject(row.datasource_metadata) },
      },
    ]
  })
}
