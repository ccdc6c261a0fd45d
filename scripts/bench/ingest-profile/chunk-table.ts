// The SQL experiment's material: the run's chunk rows as the worker's INSERT statements, and the live "Chunk"
// table's shape (indexes, foreign keys, triggers, read from the catalog: the migrations' definitions, whatever they
// are now) as the variants to build, one more feature each.
import type { Sql } from './app'

export interface InsertStatement { text: string; params: unknown[] }

export interface VariantSpec {
  key: string
  label: string
  attributed: string
  generated: boolean
  indexes: { indexdef: string }[]
  triggers: { def: string }[]
  fkeys: boolean
}

export interface ChunkTable {
  specs: VariantSpec[]
  fkeys: { def: string }[]
  notes: string[]
  /** The CREATE INDEX of the live table, made for a copy of it. */
  onTable(def: string, table: string, k: number): string
  /** The CREATE TRIGGER of the live table, made for a copy of it. */
  onTableTrigger(def: string, table: string, k: number): string
}

function vectorBinary(values: number[]): Buffer {
  const buffer = Buffer.allocUnsafe(4 + 4 * values.length)
  buffer.writeInt16BE(values.length, 0)
  buffer.writeInt16BE(0, 2)
  for (let i = 0; i < values.length; i++) buffer.writeFloatBE(values[i], 4 + 4 * i)
  return buffer
}

/** The datastore's chunk rows, read back, as multi-row INSERTs of 500 rows with binary vectors (as the worker writes). */
export async function chunkInserts(sql: Sql, datastoreId: string): Promise<{ rows: number; statements: InsertStatement[] }> {
  const rows = await sql.query<{
    id: string; org: string; ds: string; src: string; position: number; text: string; tokens: number; metadata: string; customId: string | null; embedding: number[] | string | null
  }>(
    `SELECT id, "organizationId" AS org, "datastoreId" AS ds, "datasourceId" AS src, position, text, tokens, metadata::text AS metadata,
            custom_id AS "customId", embedding::real[] AS embedding
       FROM "Chunk" WHERE "datastoreId" = $1 ORDER BY "createdAt", "datasourceId", position`,
    [datastoreId],
  )
  const ROWS_PER_INSERT = 500
  const statements: InsertStatement[] = []
  const columns = `(id, "organizationId", "datastoreId", "datasourceId", position, text, tokens, metadata, custom_id, embedding)`
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const params: unknown[] = []
    const values: string[] = []
    for (const r of rows.slice(start, start + ROWS_PER_INSERT)) {
      const p = params.length
      const embedding = typeof r.embedding === 'string' ? (JSON.parse(r.embedding.replace(/^\{/, '[').replace(/\}$/, ']')) as number[]) : r.embedding
      params.push(r.id, r.org, r.ds, r.src, r.position, r.text, r.tokens, r.metadata, r.customId, embedding ? vectorBinary(embedding) : null)
      values.push(`($${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}, $${p + 6}, $${p + 7}, $${p + 8}::jsonb, $${p + 9}, $${p + 10}::vector)`)
    }
    statements.push({ text: `${columns} VALUES ${values.join(', ')}`, params })
  }
  return { rows: rows.length, statements }
}

type Trigger = { name: string; def: string; beforeRow: boolean }

// triggers (not the foreign keys' internal ones): BEFORE … FOR EACH ROW ones compute columns (a tsvector computed
// by a trigger instead of a generated column belongs with "tsvector"), the others do more work per statement or row
async function readTriggers(sql: Sql): Promise<{ triggers: Trigger[]; tsvBy: string }> {
  const triggers = await sql.query<Trigger>(
    `SELECT tgname AS name, pg_get_triggerdef(oid) AS def, (tgtype & 3) = 3 AS "beforeRow"
       FROM pg_trigger WHERE tgrelid = '"Chunk"'::regclass AND NOT tgisinternal AND (tgtype & 4) = 4 ORDER BY tgname`,
  )
  const [tsvColumn] = await sql.query<{ generated: string }>(
    `SELECT attgenerated::text AS generated FROM pg_attribute WHERE attrelid = '"Chunk"'::regclass AND attname = 'tsv' AND NOT attisdropped`,
  )
  const tsvBy = [
    ...(tsvColumn?.generated === 's' ? ['the generated column'] : []),
    ...triggers.filter(t => t.beforeRow).map(t => `BEFORE trigger ${t.name}`),
  ].join(' and ') || 'nothing (no generated column nor BEFORE trigger)'
  return { triggers, tsvBy }
}

function variantSpecs(indexes: { indexdef: string }[], triggers: Trigger[], tsvBy: string, method: (def: string) => string): VariantSpec[] {
  const btree = indexes.filter(i => method(i.indexdef) === 'btree')
  const gin = indexes.filter(i => method(i.indexdef) === 'gin')
  const vector = indexes.filter(i => !['btree', 'gin'].includes(method(i.indexdef)))
  const rowTriggers = triggers.filter(t => t.beforeRow)
  const otherTriggers = triggers.filter(t => !t.beforeRow)
  const all = [...btree, ...gin, ...vector]
  return [
    { key: 'bare', label: 'bare row: the columns, no index, tsv a plain NULL column', attributed: 'row insert (heap, TOAST, WAL, statement)', generated: false, indexes: [], triggers: [], fkeys: false },
    { key: 'btree', label: '+ primary key and b-tree indexes', attributed: 'primary key and b-tree index inserts', generated: false, indexes: btree, triggers: [], fkeys: false },
    { key: 'tsv', label: `+ the tsvector, as computed by ${tsvBy}`, attributed: 'tsvector (to_tsvector of the text)', generated: true, indexes: btree, triggers: rowTriggers, fkeys: false },
    { key: 'gin', label: '+ GIN index on the tsvector', attributed: 'GIN insert', generated: true, indexes: [...btree, ...gin], triggers: rowTriggers, fkeys: false },
    { key: 'hnsw', label: '+ vector index(es), as the migrations define them', attributed: 'HNSW insert (binary-quantized)', generated: true, indexes: all, triggers: rowTriggers, fkeys: false },
    ...(otherTriggers.length
      ? [{ key: 'triggers', label: `+ the other triggers (${otherTriggers.map(t => t.name).join(', ')})`, attributed: 'other triggers (e.g. search statistics)', generated: true, indexes: all, triggers: triggers, fkeys: false }]
      : []),
    { key: 'fk', label: '+ foreign keys: the real "Chunk" table', attributed: 'foreign-key checks', generated: true, indexes: all, triggers: triggers, fkeys: true },
  ]
}

/** The live "Chunk" table's indexes, foreign keys and triggers, and the variants of it the experiment times. */
export async function readChunkTable(sql: Sql): Promise<ChunkTable> {
  const notes: string[] = []
  const indexes = await sql.query<{ indexname: string; indexdef: string }>(`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'Chunk' ORDER BY indexname`)
  const fkeys = await sql.query<{ def: string }>(
    `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = '"Chunk"'::regclass AND contype = 'f' ORDER BY conname`,
  )
  const method = (def: string) => /USING (\w+)/.exec(def)?.[1] ?? 'btree'
  notes.push(`indexes of "Chunk": ${indexes.map(i => `${i.indexname} (${method(i.indexdef)})`).join(', ')}; ${fkeys.length} foreign keys`)
  const { triggers, tsvBy } = await readTriggers(sql)
  if (triggers.length) notes.push(`INSERT triggers of "Chunk": ${triggers.map(t => `${t.name} (${t.beforeRow ? 'before, row' : 'after'})`).join(', ')}`)
  return {
    specs: variantSpecs(indexes, triggers, tsvBy, method),
    fkeys,
    notes,
    onTable: (def, table, k) =>
      def.replace(/^CREATE (UNIQUE )?INDEX \S+ ON (ONLY )?(public\.)?"Chunk"/, (_m, unique) => `CREATE ${unique ?? ''}INDEX "${table}_i${k}" ON "${table}"`),
    onTableTrigger: (def, table, k) =>
      def.replace(/^CREATE (CONSTRAINT )?TRIGGER (?:"[^"]+"|\S+) (.*?) ON (?:public\.)?"Chunk" /, (_m, constraint, when) => `CREATE ${constraint ?? ''}TRIGGER "${table}_t${k}" ${when} ON "${table}" `),
  }
}
