// The worker runs several text and file jobs together (lib/ingest/run-batch.ts): each keeps its own outcome.
import path from 'node:path'
import { describe, expect, test, vi } from 'vitest'
import * as blobStore from '@/lib/db/blob-store'
import { fileBlobStore, getBlobStore, originalKey, PLAIN_TEXT } from '@/lib/db/blob-store'
import { getDatabase, getPrisma } from '@/lib/db/client'
import { EMBEDDING_BATCH_SIZE } from '@/lib/embeddings/provider'
import { BATCHED_TYPES } from '@/lib/ingest/kinds'
import { claimBatchOf, claimDatasources, claimNextDatasource } from '@/lib/ingest/lifecycle'
import { PrepareContext } from '@/lib/ingest/pipeline/prepare'
import { prepareJobs, runJobs } from '@/lib/ingest/pipeline/run-jobs'
import { drainQueue, JOB_BATCH_SIZE } from '@/lib/ingest/worker'
import { addFile, addText, chunksOf, createStore, refusingPoison, reload } from './fixtures/ingest'
import { useFakeModel } from './helpers/fake-model'

const model = useFakeModel()
const embeddingCalls = () => model.fake.requests.filter(r => r.path === '/v1/embeddings').length

const text = (i: number) => `Document ${i} is about the kettle number ${i}. Descaling it with vinegar every month keeps it working.`

describe('jobs run together', () => {
  test('the worker makes the vector index of the configured size before any chunk is written or searched', async () => {
    await drainQueue()
    const { sql } = await getDatabase()
    const rows = await sql.query(`SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'Chunk' AND indexname = 'Chunk_embedding_64_idx'`)
    expect(rows).toHaveLength(1)
  })

  test('several documents share one embeddings request and each gets its own chunks', async () => {
    const org = await createStore()
    const docs = []
    for (let i = 0; i < 6; i++) docs.push(await addText(org, text(i), { customId: `c-${i}` }))
    expect(await drainQueue()).toBe(6)
    expect(embeddingCalls()).toBe(1)
    for (const [i, ds] of docs.entries()) {
      const stored = await reload(ds.id)
      expect(stored).toMatchObject({ status: 'synched', nbChunks: 1, leaseOwner: null, attempts: 0 })
      const chunks = await chunksOf(ds.id)
      expect(chunks).toHaveLength(1)
      expect(chunks[0]).toMatchObject({ position: 0, custom_id: `c-${i}`, dims: 64 })
      expect(chunks[0].text).toContain(`kettle number ${i}.`)
      expect(stored.nbTokens).toBe(chunks[0].tokens)
    }
  })

  test("a batch's stored originals are read with its claim, in one statement; one stored as a file before is read alone", async () => {
    const org = await createStore()
    const docs = []
    for (let i = 0; i < 4; i++) docs.push(await addText(org, text(i)))
    // an original an earlier version stored under its folder's key (the embedded database: as a file)
    const old = await addText(org, text(9))
    await (await getBlobStore()).remove([originalKey(old.id)])
    const legacy = (await getDatabase()).kind === 'pglite' ? fileBlobStore(path.join(process.env.DATA_DIR!, 'blobs')) : await getBlobStore()
    await legacy.put(`datasources/${old.id}/original`, new TextEncoder().encode(text(9)), PLAIN_TEXT)
    const alone = vi.spyOn(blobStore, 'readOriginalBlob')
    try {
      expect(await drainQueue()).toBe(5)
      expect(alone.mock.calls.map(([id]) => id)).toEqual([old.id])
    } finally {
      alone.mockRestore()
    }
    for (const ds of [...docs, old]) expect(await reload(ds.id)).toMatchObject({ status: 'synched', nbChunks: 1 })
    expect((await chunksOf(old.id))[0].text).toContain('kettle number 9.')
  })

  test("a statement sent while a batch is prepared is answered before the preparation ends (the database's replies are not held back)", async () => {
    const org = await createStore()
    for (let i = 0; i < 128; i++) await addText(org, Array.from({ length: 8 }, (_, j) => text(i * 10 + j)).join(' '))
    const { sql } = await getDatabase()
    const prepareWhileAsking = async () => {
      const jobs = await claimDatasources('prep-worker', 60_000, { limit: 64, types: BATCHED_TYPES })
      const context = await PrepareContext.load(jobs, null)
      let preparing = true
      const preparation = prepareJobs(jobs, 'prep-worker', { leaseMs: 60_000 }, context).finally(() => (preparing = false))
      const answeredWhilePreparing = await sql.query('SELECT 1').then(() => preparing)
      await (await preparation).write()
      return answeredWhilePreparing
    }
    await prepareWhileAsking() // the first batch of a process loads the tokenizer, and its chunking yields for that
    // preparing is this thread's work alone (the originals came with the claim): without a turn of the event loop
    // between documents, the reply would wait for the whole batch
    expect(await prepareWhileAsking()).toBe(true)
    expect(await drainQueue()).toBe(0)
  })

  test('the database is told when chunks were written (the embedded one then refreshes its statistics soon)', async () => {
    const database = await getDatabase()
    const before = database.chunksChanged
    database.chunksChanged = vi.fn()
    try {
      const org = await createStore()
      await addText(org, text(1))
      expect(await drainQueue()).toBe(1)
      expect(database.chunksChanged).toHaveBeenCalledTimes(1)
    } finally {
      database.chunksChanged = before
    }
  })

  test('a lane prepares its next batch while the previous one is embedded and written', async () => {
    const org = await createStore()
    const docs = []
    for (let i = 0; i < JOB_BATCH_SIZE + 8; i++) docs.push(await addText(org, text(i)))
    // a slow embeddings model: the first batch's requests (one after the other) take seconds
    model.fake.setBehaviour({ embeddingsDelayMs: 800 })
    expect(await drainQueue({ concurrency: 1 })).toBe(JOB_BATCH_SIZE + 8)
    // one lane, yet the second batch's request came while one of the first batch's was unanswered (before: one at a
    // time), and the third's too: a batch's embeddings are requested as soon as it is prepared, not once the lane has
    // claimed the next (issue 28); never more at once than the batches a lane holds (two being written, one prepared)
    const embeddings = model.fake.requests.filter(r => r.path === '/v1/embeddings') as unknown as { inFlight: number }[]
    expect(Math.max(...embeddings.map(r => r.inFlight))).toBe(3)
    for (const ds of [docs[0], docs.at(-1)!]) expect(await reload(ds.id)).toMatchObject({ status: 'synched', nbChunks: 1 })
  })

  test('batches grow to JOB_BATCH_SIZE jobs, each claimed and written together, and a job the database refuses still fails alone', async () => {
    expect(JOB_BATCH_SIZE).toBeGreaterThanOrEqual(128) // one chunk INSERT for many documents: less of the BM25 statistics' cost a chunk
    const org = await createStore()
    const poisoned = Math.floor(JOB_BATCH_SIZE * 0.7)
    const docs = []
    for (let i = 0; i < JOB_BATCH_SIZE; i++) docs.push(await addText(org, i === poisoned ? `${text(i)} The word poison makes the database refuse it.` : text(i)))
    expect(await refusingPoison(() => drainQueue({ concurrency: 1 }))).toBe(JOB_BATCH_SIZE)
    const { sql } = await getDatabase()
    // one lane claims 16 jobs, then 32, 64, 128 (each claim doubling the one before it: lib/ingest/lane-batches.ts), then
    // the 16 left; a batch's chunks go in one embeddings call per EMBEDDING_BATCH_SIZE inputs (a batch a job: 256 calls)
    const batches = [16, 32, 64, 128, JOB_BATCH_SIZE - 240]
    expect(embeddingCalls()).toBe(batches.reduce((n, size) => n + Math.ceil(size / EMBEDDING_BATCH_SIZE), 0))
    for (const [i, ds] of docs.entries()) {
      if (i === poisoned) continue
      expect(await reload(ds.id)).toMatchObject({ status: 'synched', nbChunks: 1, syncOutcome: 'added' })
      expect((await chunksOf(ds.id)).map(c => c.text)).toEqual([text(i)])
    }
    expect(await reload(docs[poisoned].id)).toMatchObject({ status: 'pending', leaseOwner: null, errorMessage: expect.stringMatching(/poisoned chunk/) })
    expect(await chunksOf(docs[poisoned].id)).toHaveLength(0)
    // the statistics count what was written, job by job after the batch's write failed
    const [stats] = await sql.query<{ chunks: number; terms: number; recount: number }>(
      `SELECT (SELECT chunks::int FROM "DatastoreTextStats" WHERE "datastoreId" = $1) AS chunks,
              (SELECT sum(df)::int FROM "DatastoreTerm" WHERE "datastoreId" = $1) AS terms,
              (SELECT sum(length(tsv))::int FROM "Chunk" WHERE "datastoreId" = $1) AS recount`,
      [org.store.id],
    )
    expect(stats).toEqual({ chunks: JOB_BATCH_SIZE - 1, terms: stats.recount, recount: expect.any(Number) })
    await sql.query(`DELETE FROM "Datasource" WHERE id = $1`, [docs[poisoned].id])
  })

  test('large documents are embedded and written in groups as they come, each complete', async () => {
    const org = await createStore({ chunkSize: 32, chunkOverlap: 0 })
    const docs = []
    for (let i = 0; i < 4; i++) docs.push(await addText(org, Array.from({ length: 200 }, (_, j) => text(i * 1000 + j)).join('\n\n')))
    expect(await drainQueue()).toBe(4)
    for (const ds of docs) {
      const stored = await reload(ds.id)
      const chunks = await chunksOf(ds.id)
      expect(stored.status).toBe('synched')
      expect(chunks.length).toBeGreaterThanOrEqual(150)
      expect(stored.nbChunks).toBe(chunks.length)
      expect(chunks.map(c => c.position)).toEqual(chunks.map((_, i) => i))
      expect(chunks.every(c => c.dims === 64)).toBe(true)
    }
  })

  test('a job checked while a group is written is refused only on what that write really stored', async () => {
    // X and Y (300 chunks, 7,200 tokens each) fill the first group; together they pass the limit, so the write stores X and
    // refuses Y. B, prepared while that group is written, fits beside X alone: it must not be refused on X + Y.
    const org = await createStore({ chunkSize: 32, chunkOverlap: 0 })
    const big = (i: number) => Array.from({ length: 300 }, (_, j) => text(i * 1000 + j)).join('\n\n')
    const [x, y, b] = [await addText(org, big(1)), await addText(org, big(2)), await addText(org, text(3))]
    const prisma = await getPrisma()
    await prisma.usageLimit.create({ data: { organizationId: org.organizationId, maxStoredTokens: 10_000 } })
    expect(await drainQueue({ concurrency: 1 })).toBe(3)
    const [sx, sy, sb] = [await reload(x.id), await reload(y.id), await reload(b.id)]
    expect([sx.status, sy.status, sb.status]).toEqual(['synched', 'usage_limit_reached', 'synched'])
    expect(sx.nbChunks).toBeLessThan(512) // X alone did not fill a group: X and Y were written together
  })

  test('a corrupt file among them ends in error with its reason, and the others are synched', async () => {
    const org = await createStore()
    const before = await addText(org, text(1))
    const corrupt = await addFile(org, { data: 'this is not a PDF at all', contentType: 'application/pdf', fileName: 'broken.pdf' })
    const after = await addText(org, text(2))
    expect(await drainQueue()).toBe(3)
    expect((await reload(corrupt.id)).status).toBe('error')
    expect((await reload(corrupt.id)).errorMessage).toBeTruthy()
    expect(await chunksOf(corrupt.id)).toHaveLength(0)
    for (const ds of [before, after]) {
      expect((await reload(ds.id)).status).toBe('synched')
      expect(await chunksOf(ds.id)).toHaveLength(1)
    }
  })

  test('a job the database refuses fails alone: the batch is written again job by job', async () => {
    const org = await createStore()
    const good = await addText(org, text(1))
    const refused = await addText(org, `${text(2)} The word poison makes the database refuse it.`)
    const other = await addText(org, text(3))
    // this job's chunk insert fails, and with it the batch's transaction
    expect(await refusingPoison(() => drainQueue())).toBe(3)
    const { sql } = await getDatabase()
    for (const ds of [good, other]) {
      expect((await reload(ds.id)).status).toBe('synched')
      expect(await chunksOf(ds.id)).toHaveLength(1)
    }
    // an unexpected failure is retried later, like any job's
    const failed = await reload(refused.id)
    expect(failed).toMatchObject({ status: 'pending', leaseOwner: null })
    expect(failed.errorMessage).toMatch(/poisoned chunk/)
    expect(await chunksOf(refused.id)).toHaveLength(0)
    await sql.query(`DELETE FROM "Datasource" WHERE id = $1`, [refused.id])
  })

  test('a job claimed again too many times ends in error while the others of its batch are synched', async () => {
    const org = await createStore()
    const doomed = await addText(org, text(1))
    const others = [await addText(org, text(2)), await addText(org, text(3))]
    // its worker died on it again and again: its lease expired with the attempts all used
    const { sql } = await getDatabase()
    await sql.query(
      `UPDATE "Datasource" SET status = 'running', "leaseOwner" = 'dead', "leaseExpiresAt" = now() - interval '1 hour', attempts = 3 WHERE id = $1`,
      [doomed.id],
    )
    expect(await drainQueue()).toBe(3)
    expect((await reload(doomed.id)).status).toBe('error')
    expect((await reload(doomed.id)).errorMessage).toMatch(/interrupted/)
    for (const ds of others) expect((await reload(ds.id)).status).toBe('synched')
  })

  test('a job whose lease another worker took over writes nothing, and the others of its batch are written', async () => {
    const org = await createStore()
    const docs = [await addText(org, text(1)), await addText(org, text(2)), await addText(org, text(3))]
    const first = await claimNextDatasource('slow-worker', 60_000)
    const more = await claimDatasources('slow-worker', 60_000, { limit: 15, types: BATCHED_TYPES })
    const jobs = [first!, ...more]
    expect(jobs.map(j => j.id).sort()).toEqual(docs.map(d => d.id).sort())
    // the second job's lease expired and another worker claimed it meanwhile
    const { sql } = await getDatabase()
    await sql.query(`UPDATE "Datasource" SET "leaseOwner" = 'other-worker' WHERE id = $1`, [jobs[1].id])

    const statuses = await runJobs(jobs, 'slow-worker', { leaseMs: 60_000 })
    expect(statuses).toEqual(['synched', 'lease_lost', 'synched'])
    expect(await chunksOf(jobs[1].id)).toHaveLength(0)
    expect(await reload(jobs[1].id)).toMatchObject({ status: 'running', leaseOwner: 'other-worker' })
    for (const job of [jobs[0], jobs[2]]) expect(await chunksOf(job.id)).toHaveLength(1)
    await sql.query(`DELETE FROM "Datasource" WHERE id = $1`, [jobs[1].id])
  })

  test('a worker slower than its lease never claims its own job a second time, and a job run twice is written once', async () => {
    const org = await createStore()
    const doc = await addText(org, text(1))
    const first = await claimNextDatasource('slow-worker', 60_000)
    // the machine stalled past the lease before the worker claimed more
    const { sql } = await getDatabase()
    await sql.query(`UPDATE "Datasource" SET "leaseExpiresAt" = now() - interval '1 second' WHERE id = $1`, [doc.id])
    expect(await claimDatasources('slow-worker', 60_000, { limit: 15, types: BATCHED_TYPES })).toEqual([])
    await sql.query(`UPDATE "Datasource" SET "leaseExpiresAt" = now() + interval '1 minute' WHERE id = $1`, [doc.id])

    expect(await runJobs([first!, first!], 'slow-worker', { leaseMs: 60_000 })).toEqual(['synched', 'synched'])
    expect(await chunksOf(doc.id)).toHaveLength((await reload(doc.id)).nbChunks)
  })

  test('claiming more never takes a job another worker holds, nor a web page', async () => {
    const org = await createStore()
    await addText(org, text(1))
    const held = await claimNextDatasource('worker-a', 60_000)
    const prisma = await getPrisma()
    await prisma.datasource.create({
      data: { organizationId: org.organizationId, datastoreId: org.store.id, type: 'web_page', name: 'page', status: 'pending', config: { source_url: 'https://example.com/' } },
    })
    expect(await claimDatasources('worker-b', 60_000, { limit: 15, types: BATCHED_TYPES })).toEqual([])
    await runJobs([held!], 'worker-a', { leaseMs: 60_000 })
    await prisma.datasource.deleteMany({ where: { datastoreId: org.store.id, type: 'web_page' } })
  })

  test('a batch is claimed in one statement: the next due job and the batched ones due after it; a web page first goes alone', async () => {
    const org = await createStore()
    const prisma = await getPrisma()
    const page = (name: string) => prisma.datasource.create({
      data: { organizationId: org.organizationId, datastoreId: org.store.id, type: 'web_page', name, status: 'pending', config: { source_url: 'https://example.com/' } },
    })
    const queue = [await addText(org, text(1)), await page('between'), await addText(org, text(2)), await addText(org, text(3)), await page('last')]
    // due in this order, before anything else queued in this file
    const { sql } = await getDatabase()
    for (const [i, ds] of queue.entries()) await sql.query(`UPDATE "Datasource" SET "nextRunAt" = timestamp '2000-01-01' + make_interval(secs => $2) WHERE id = $1`, [ds.id, i])
    const statements = vi.spyOn(sql, 'query')
    const batch = await claimBatchOf('batch-worker', 60_000, 3, BATCHED_TYPES)
    expect(statements.mock.calls.filter(([text]) => text.includes('UPDATE "Datasource" d')).length).toBe(1)
    statements.mockRestore()
    expect(batch.map(j => j.id)).toEqual([queue[0].id, queue[2].id])
    expect((await claimBatchOf('batch-worker', 60_000, 3, BATCHED_TYPES)).map(j => j.id)).toEqual([queue[1].id])
    expect((await claimBatchOf('batch-worker', 60_000, 3, BATCHED_TYPES)).map(j => j.id)).toEqual([queue[3].id])
    expect((await claimBatchOf('batch-worker', 60_000, 3, BATCHED_TYPES)).map(j => j.id)).toEqual([queue[4].id])
    for (const ds of await prisma.datasource.findMany({ where: { id: { in: queue.map(q => q.id) } } })) expect(ds).toMatchObject({ status: 'running', leaseOwner: 'batch-worker', attempts: 1 })
    await prisma.datasource.deleteMany({ where: { id: { in: queue.map(q => q.id) } } })
  })

  test("the usage limit counts the batch's earlier jobs: the one that would pass it ends usage_limit_reached", async () => {
    const org = await createStore()
    const probe = await addText(org, text(5))
    await drainQueue()
    const tokens = (await reload(probe.id)).nbTokens
    const prisma = await getPrisma()
    // room for the probe and one more document of its size, not two
    await prisma.usageLimit.create({ data: { organizationId: org.organizationId, maxStoredTokens: tokens * 2 + 1 } })
    const a = await addText(org, text(6))
    const b = await addText(org, text(7))
    expect(await drainQueue()).toBe(2)
    const statuses = [(await reload(a.id)).status, (await reload(b.id)).status].sort()
    expect(statuses).toEqual(['synched', 'usage_limit_reached'])
    const blocked = (await reload(a.id)).status === 'synched' ? b : a
    expect(await chunksOf(blocked.id)).toHaveLength(0)
    expect((await reload(blocked.id)).errorMessage).toMatch(/Usage limit reached/)
  })
})
