// The ceiling benchmark's data and costs: real text in steps (the BEIR corpus, then documents mixed from its
// sentences), the chunks written as the worker writes them, the CPU of this process and of a local PostgreSQL server,
// and the database's size on disk.
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { newId } from '@/lib/db/ids'
import type { SqlDriver } from '@/lib/db/sql-driver'
import { toVectorBinary } from '@/lib/db/vector-binary'
import { seededRandom, type BenchEnvironment } from './datastore-support'
import { benchEmbedding } from './embeddings-server'

const ROWS_PER_INSERT = 500
const BATCH = 2000
const CHUNKS_PER_DATASOURCE = 100

export const jsonLines = (file: string) => fs.readFileSync(file, 'utf8').split('\n').filter(l => l.trim()).map(l => JSON.parse(l))

/** Real documents first, then documents mixed from the corpus's sentences, with its own lengths. */
export function textSource(dir: string): () => string {
  const docs: string[] = jsonLines(path.join(dir, 'corpus.jsonl')).map(d => [d.title, d.text].filter(Boolean).join('\n\n'))
  const sentences = docs.flatMap(d => d.split(/(?<=[.!?])\s+/)).filter(s => s.length > 20)
  const random = seededRandom(7)
  let next = 0
  return () => {
    if (next < docs.length) return docs[next++]
    const length = docs[Math.floor(random() * docs.length)].length
    let text = ''
    while (text.length < length) text += (text ? ' ' : '') + sentences[Math.floor(random() * sentences.length)]
    return text
  }
}

/** CPU time (ms) of the PostgreSQL server's processes, when it runs on this machine and its folder is readable. */
export async function serverCpuReader(sql: SqlDriver): Promise<() => number> {
  if (sql.kind !== 'postgres') return () => 0
  try {
    const [{ setting }] = await sql.query<{ setting: string }>(`SELECT setting FROM pg_settings WHERE name = 'data_directory'`)
    const postmaster = Number(fs.readFileSync(path.join(setting, 'postmaster.pid'), 'utf8').split('\n')[0])
    const tick = 1000 / 100 // USER_HZ
    return () => {
      let total = 0
      for (const pid of fs.readdirSync('/proc').filter(p => /^\d+$/.test(p))) {
        try {
          const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
          if (Number(pid) === postmaster || Number(fields[1]) === postmaster) total += (Number(fields[11]) + Number(fields[12])) * tick
        } catch { /* gone */ }
      }
      return total
    }
  } catch {
    console.log('(PostgreSQL server CPU not readable from here: only this process is counted)')
    return () => 0
  }
}

export const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }

/** Writes chunks `from`…`to` as the worker does; returns the CPU (process + server) spent writing them. */
export async function writeChunks(env: BenchEnvironment, storeId: string, dims: number, next: () => string, from: number, to: number, serverCpu: () => number) {
  let cpu = 0
  let wall = 0
  for (let start = from; start < to; start += BATCH) {
    const end = Math.min(to, start + BATCH)
    const datasources: string[] = []
    for (let n = Math.floor(start / CHUNKS_PER_DATASOURCE); n * CHUNKS_PER_DATASOURCE < end; n++) datasources.push(newId())
    await env.db.prisma.datasource.createMany({
      data: datasources.map((id, i) => ({ id, organizationId: env.organizationId, datastoreId: storeId, type: 'text' as const, name: `Document ${start + i}`, status: 'synched' as const, lastSynch: new Date() })),
    })
    const firstDs = Math.floor(start / CHUNKS_PER_DATASOURCE)
    const rows = Array.from({ length: end - start }, (_, k) => {
      const i = start + k
      const text = next()
      return { i, text, embedding: dims ? toVectorBinary(Array.from(benchEmbedding(text, dims))) : null, ds: datasources[Math.floor(i / CHUNKS_PER_DATASOURCE) - firstDs] }
    })
    const [c0, s0, t0] = [cpuMs(), serverCpu(), performance.now()]
    for (let r = 0; r < rows.length; r += ROWS_PER_INSERT) {
      const params: unknown[] = []
      const values = rows.slice(r, r + ROWS_PER_INSERT).map(row => {
        const p = params.length
        params.push(randomUUID(), env.organizationId, storeId, row.ds, row.i % CHUNKS_PER_DATASOURCE, row.text, Math.round(row.text.length / 4), '{}', null, row.embedding)
        return `($${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}, $${p + 6}, $${p + 7}, $${p + 8}::jsonb, $${p + 9}, $${p + 10}::vector)`
      })
      await env.db.sql.transaction(tx =>
        tx.query(`INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens, metadata, custom_id, embedding) VALUES ${values.join(', ')}`, params),
      )
    }
    cpu += cpuMs() - c0 + serverCpu() - s0
    wall += performance.now() - t0
  }
  return { cpu, wall }
}

function directorySize(dir: string): number {
  let total = 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name)
    total += entry.isDirectory() ? directorySize(p) : fs.statSync(p).size
  }
  return total
}

export async function databaseBytes(env: BenchEnvironment): Promise<number> {
  if (env.db.kind === 'pglite') return directorySize(env.dataDir)
  const [{ bytes }] = await env.db.sql.query<{ bytes: string }>(
    `SELECT COALESCE(sum(pg_total_relation_size(c.oid)), 0)::text AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'm')`,
  )
  return Number(bytes)
}
