// `npm run bench:ingest`: upsert → synched throughput on the embedded default (PGlite on disk in a fresh DATA_DIR),
// with the local embeddings server (1536 dimensions, answering at once, in its own process). Documents go through
// the upsert route over loopback HTTP; the sync worker (drainQueue, WORKER_CONCURRENCY lanes) then loads, chunks,
// embeds and writes them. Sizes: BENCH_DOCS (default 2000), BENCH_DOC_WORDS (default 600), BENCH_BATCH (default 500
// documents per upsert), BENCH_CONCURRENCY (default WORKER_CONCURRENCY, 2); BENCH_WITHOUT_VECTOR_INDEX=1 drops the HNSW
// index first (diagnosis only). BENCH_DATABASE_URL=postgres://… runs it on PostgreSQL (a fresh schema) instead.
// BENCH_NO_EMBEDDINGS=1: full-text mode (no embeddings provider, as `npm start` without OPENAI_API_KEY).
// BENCH_FORMAT=pdf: the same documents as text PDFs (a text layer, BENCH_PDF_PAGE_WORDS words a page, default 250),
// uploaded one file a request through the external file-upload route (8 at a time), BENCH_DOCS default 400: the
// loader's cost on text PDFs (issue 26: they must not get slower with OCR in the loader).
// `npm run bench:ingest -- --compare DIR [--rounds N]`: this tree and another (e.g. a clone at an earlier commit)
// alternated in one session (scripts/bench/ingest-throughput-compare.ts).
import os from 'node:os'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import * as upsert from '@/app/api/datastores/upsert/[datastoreId]/route'
import * as fileUpload from '@/app/api/external/datastores/file-upload/[datastoreId]/route'
import { config } from '@/lib/config'
import { drainQueue } from '@/lib/ingest/worker'
import { ensureVectorIndex, vectorIndexName } from '@/lib/db/vector-index'
import { Corpus, DIMENSIONS, envInt, machine, openBenchEnvironment, round, serveRoutes } from './datastore-support'

type Env = Awaited<ReturnType<typeof openBenchEnvironment>>
type Counts = { synched: number; failed: number; chunks: number; tokens: number; embedded: number }
type Timed = { started: number; upserted: number; synched: number; cpu: NodeJS.CpuUsage; jobs: number }

async function createBenchDatastore(env: Env): Promise<{ id: string }> {
  const { prisma, sql } = env.db
  const store = await prisma.datastore.create({ data: { organizationId: env.organizationId, name: 'bench ingest' } })
  if (process.env.BENCH_WITHOUT_VECTOR_INDEX === '1') {
    // diagnosis: the same run without maintaining the HNSW index, to show its share of the time (ensured first, so
    // that the worker's own ensureVectorIndex at start, remembered per process, does not build it again)
    await ensureVectorIndex(sql, DIMENSIONS)
    await sql.exec(`DROP INDEX IF EXISTS "${vectorIndexName(DIMENSIONS)}"`)
    console.log('(without the HNSW index)')
  }
  return store
}

function syntheticDocuments(docs: number, words: number) {
  const corpus = new Corpus({ seed: 7 })
  const documents = Array.from({ length: docs }, (_, i) => ({
    text: corpus.text(i % corpus.topics.length, words),
    name: `Document ${i}`,
    metadata: { source: `https://bench.example/${i}`, custom_id: `tenant-${i % 10}` },
  }))
  return { documents, bytes: documents.reduce((n, d) => n + Buffer.byteLength(d.text), 0) }
}

/** The clock and this process's CPU from the first upsert (or upload) to the last datasource synched. */
async function timeIngest(serverUrl: string, storeId: string, apiKey: string, documents: unknown[], files: Uint8Array[] | null, batch: number, concurrency: number): Promise<Timed> {
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }
  const started = performance.now()
  const cpuStart = process.cpuUsage()
  if (files) await uploadFiles(`${serverUrl}/api/external/datastores/file-upload/${storeId}`, apiKey, files)
  for (let i = 0; !files && i < documents.length; i += batch) {
    const res = await fetch(`${serverUrl}/api/datastores/upsert/${storeId}`, {
      method: 'POST', headers, body: JSON.stringify({ documents: documents.slice(i, i + batch) }),
    })
    if (res.status !== 200) throw new Error(`upsert failed: ${res.status} ${await res.text()}`)
    await res.arrayBuffer()
  }
  const upserted = performance.now()
  const jobs = await drainQueue({ concurrency })
  const synched = performance.now()
  return { started, upserted, synched, cpu: process.cpuUsage(cpuStart), jobs }
}

async function countSynched(sql: Env['db']['sql'], storeId: string, docs: number): Promise<Counts> {
  const [counts] = await sql.query<Counts>(
    `SELECT count(*) FILTER (WHERE status = 'synched')::int AS synched, count(*) FILTER (WHERE status <> 'synched')::int AS failed,
            COALESCE(sum("nbChunks"), 0)::int AS chunks, COALESCE(sum("nbTokens"), 0)::int AS tokens,
            (SELECT count(*)::int FROM "Chunk" WHERE "datastoreId" = $1 AND embedding IS NOT NULL) AS embedded
     FROM "Datasource" WHERE "datastoreId" = $1`,
    [storeId],
  )
  if (counts.synched !== docs) throw new Error(`${counts.failed} of ${docs} datasources did not reach synched`)
  return counts
}

function resultRow(docs: number, bytes: number, counts: Counts, t: Timed, concurrency: number, load: number) {
  const total = (t.synched - t.started) / 1000
  return {
    documents: docs,
    chunks: counts.chunks,
    embedded_chunks: counts.embedded,
    tokens: counts.tokens,
    megabytes: round(bytes / 1e6, 2),
    concurrency,
    jobs: t.jobs,
    upsert_s: round((t.upserted - t.started) / 1000, 2),
    sync_s: round((t.synched - t.upserted) / 1000, 2),
    total_s: round(total, 2),
    documents_per_s: round(docs / total),
    chunks_per_s: round(counts.chunks / total),
    mb_per_s: round(bytes / 1e6 / total, 2),
    // this process (the HTTP service, the worker, the embedded database), not the embeddings server's
    cpu_ms_per_chunk: round((t.cpu.user + t.cpu.system) / 1000 / counts.chunks, 2),
    user_ms_per_chunk: round(t.cpu.user / 1000 / counts.chunks, 2),
    system_ms_per_chunk: round(t.cpu.system / 1000 / counts.chunks, 2),
    embeddings: process.env.OPENAI_API_KEY ? DIMENSIONS : 0,
    load_at_start: load,
  }
}

export async function run(argv: string[] = []): Promise<void> {
  if (argv.includes('--compare')) {
    const { compareThroughput } = await import('./ingest-throughput-compare')
    return compareThroughput(argv)
  }
  const pdf = process.env.BENCH_FORMAT === 'pdf'
  const docs = envInt('BENCH_DOCS', pdf ? 400 : 2000)
  const words = envInt('BENCH_DOC_WORDS', 600)
  const batch = Math.min(1000, envInt('BENCH_BATCH', 500))
  const load = Math.round(os.loadavg()[0] * 10) / 10
  const env = await openBenchEnvironment()
  if (process.env.BENCH_NO_EMBEDDINGS === '1') delete process.env.OPENAI_API_KEY
  const concurrency = envInt('BENCH_CONCURRENCY', config().WORKER_CONCURRENCY)
  const server = await serveRoutes([
    [/^\/api\/datastores\/upsert\/([^/]+)$/, ['datastoreId'], upsert.POST as never],
    [/^\/api\/external\/datastores\/file-upload\/([^/]+)$/, ['datastoreId'], fileUpload.POST as never],
  ])
  try {
    const store = await createBenchDatastore(env)
    const { documents, bytes } = syntheticDocuments(docs, words)
    const files = pdf ? await Promise.all(documents.map(d => textPdf(d.text))) : []
    const timed = await timeIngest(server.url, store.id, env.apiKey, documents, pdf ? files : null, batch, concurrency)
    const counts = await countSynched(env.db.sql, store.id, docs)
    const row = resultRow(docs, bytes, counts, timed, concurrency, load)
    if (pdf) console.log(`(text PDFs: ${files.length}, ${round(files.reduce((n, f) => n + f.byteLength, 0) / 1e6, 2)} MB of PDF)`)
    console.log(JSON.stringify(row))
    console.log(`\nmachine: ${machine()}`)
    console.log('| documents | chunks (1536 dims) | text | upsert (HTTP) | sync | documents/s | chunks/s | MB/s |')
    console.log('|---|---|---|---|---|---|---|---|')
    console.log(`| ${docs.toLocaleString('en')} | ${counts.chunks.toLocaleString('en')} | ${row.megabytes} MB | ${row.upsert_s} s | ${row.sync_s} s | ${row.documents_per_s} | ${row.chunks_per_s} | ${row.mb_per_s} |`)
  } finally {
    await server.close()
    await env.close()
  }
}

/** A PDF with a text layer (Helvetica), BENCH_PDF_PAGE_WORDS words a page, as a word processor exports. */
async function textPdf(text: string): Promise<Uint8Array> {
  const perPage = envInt('BENCH_PDF_PAGE_WORDS', 250)
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const words = text.split(/\s+/)
  for (let i = 0; i < words.length; i += perPage) {
    doc.addPage([595, 842]).drawText(words.slice(i, i + perPage).join(' '), { x: 50, y: 790, size: 10, font, maxWidth: 495, lineHeight: 13 })
  }
  return doc.save()
}

/** Each file uploaded in its own request, 8 requests at a time. */
async function uploadFiles(url: string, apiKey: string, files: Uint8Array[]): Promise<void> {
  let next = 0
  const lane = async () => {
    while (next < files.length) {
      const i = next++
      const form = new FormData()
      form.append('file', new File([new Uint8Array(files[i])], `document-${i}.pdf`, { type: 'application/pdf' }))
      const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${apiKey}` }, body: form })
      if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`)
      await res.arrayBuffer()
    }
  }
  await Promise.all(Array.from({ length: 8 }, lane))
}
