// A large synchronisation is written in steps (lib/ingest/lifecycle/write-steps.ts): the embedded database, which has
// one session, is never held for the whole write, and no search finds any of it before it is complete; a
// re-synchronisation's searches find the whole old content until its last step, then the whole new one
// (lib/ingest/lifecycle/write-generations.ts).
import { describe, expect, test } from 'vitest'
import { getDatabase, getPrisma } from '@/lib/db/client'
import { claimNextDatasource } from '@/lib/ingest/lifecycle'
import { settle } from '@/lib/ingest/lifecycle/settle'
import { SHARED_STEP_ROWS, STEP_ROWS } from '@/lib/ingest/lifecycle/write-steps'
import { runJobs } from '@/lib/ingest/pipeline/run-jobs'
import { drainQueue } from '@/lib/ingest/worker'
import { fulltextRanking } from '@/lib/search/fulltext'
import { scopeOf } from '@/lib/search/scope'
import { listChunks } from '@/lib/datastores/datasource-content'
import { enqueueDatasources } from '@/lib/ingest/lifecycle/enqueue'
import { addText, chunksOf, createStore, poisonedAfter, refusingPoison, reload, replaceText, slowingChunkWrites } from '../fixtures/ingest'
import { useFakeModel } from '../helpers/fake-model'

useFakeModel()

const paragraph = (i: number) => `Document ${i} is about the kettle number ${i}. Descaling it with vinegar every month keeps it working.`
// with chunks of 32 tokens, a chunk a paragraph: several steps
const CHUNKS = 3 * STEP_ROWS + 20
const big = (marked?: number) => Array.from({ length: CHUNKS }, (_, i) => `${paragraph(i)}${i === marked ? ' It holds poison.' : ''}`).join('\n\n')

type Store = Awaited<ReturnType<typeof createStore>>

interface Observation {
  stored: number
  status: string
  /** Chunks a search for the first content's words finds, and for the second's (lines about teapots). */
  found: number
  foundNew: number
  /** ... and for words both contents hold, in one search. */
  foundEither: number
}

const NEW_WORDS = 'teapot rinsing'
const newParagraph = (i: number) => `Document ${i} is about the teapot number ${i}. Rinsing it with water every week keeps it clean.`
const bigNew = (chunks = CHUNKS, marked?: number) =>
  Array.from({ length: chunks }, (_, i) => `${newParagraph(i)}${i === marked ? ' It holds poison.' : ''}`).join('\n\n')

/**
 * While `write` runs, asks the database again and again what a search of the datastore finds, then how many chunks
 * the datasource holds and its status (read after the search: a status not yet synched was not synched during it).
 * `onStored` is called with each count.
 */
async function watch(store: Store['store'], datasourceId: string, write: Promise<unknown>, onStored?: (stored: number) => Promise<void>) {
  const { sql } = await getDatabase()
  let done = false
  const finished = write.finally(() => (done = true))
  const seen: Observation[] = []
  while (!done) {
    const search = async (words: string) => (await fulltextRanking(sql, scopeOf({ organizationId: store.organizationId, datastoreIds: [store.id] }), words, 1000)).length
    const found = await search('kettle vinegar')
    const foundNew = await search(NEW_WORDS)
    const foundEither = await search('document number')
    const [row] = await sql.query<{ stored: number; status: string }>(
      `SELECT (SELECT count(*) FROM "Chunk" WHERE "datasourceId" = $1)::int AS stored, status FROM "Datasource" WHERE id = $1`,
      [datasourceId],
    )
    seen.push({ ...row, found, foundNew, foundEither })
    await onStored?.(row.stored)
  }
  return { seen, result: await finished }
}

/**
 * A slow worker's write of the job, whose lease expires and which another worker claims once a first step is written
 * (more than `before` chunks stored).
 */
async function interrupted(store: Store['store'], datasourceId: string, before = 0) {
  const job = (await claimNextDatasource('slow-worker', 60_000))!
  const { sql } = await getDatabase()
  const takeOver = async (stored: number) => void (stored > before && (await sql.query(`UPDATE "Datasource" SET "leaseOwner" = 'other-worker' WHERE id = $1`, [datasourceId])))
  return watch(store, datasourceId, runJobs([job], 'slow-worker', { leaseMs: 60_000 }), takeOver)
}

describe('a large first synchronisation', () => {
  test('is written in steps, other statements answered between them, and no search finds any of it before the last', async () => {
    const org = await createStore({ chunkSize: 32, chunkOverlap: 0 })
    const ds = await addText(org, big())
    const { seen } = await watch(org.store, ds.id, drainQueue({ concurrency: 1 }))

    // one transaction shows 0 chunks, then all: steps show some
    expect(seen.some(s => s.status === 'running' && s.stored > 0 && s.stored < CHUNKS)).toBe(true)
    expect(seen.filter(s => s.status !== 'synched').map(s => s.found)).toEqual(seen.filter(s => s.status !== 'synched').map(() => 0))
    const stored = await reload(ds.id)
    const chunks = await chunksOf(ds.id)
    expect(stored).toMatchObject({ status: 'synched', nbChunks: CHUNKS, leaseOwner: null })
    expect(chunks.map(c => c.position)).toEqual(chunks.map((_, i) => i))
    expect(stored.nbTokens).toBe(chunks.reduce((n, c) => n + c.tokens, 0))
    const { sql } = await getDatabase()
    expect(await fulltextRanking(sql, scopeOf({ organizationId: org.organizationId, datastoreIds: [org.store.id] }), 'kettle vinegar', 1000)).toHaveLength(CHUNKS)
  })

  // the embedded database tells the writer what waits on it (PostgreSQL has sessions of its own: steps stay whole there)
  test.skipIf(process.env.TEST_DATABASE === 'postgres')('takes smaller steps once other statements are seen waiting on the database', async () => {
    const org = await createStore({ chunkSize: 32, chunkOverlap: 0 })
    const ds = await addText(org, big())
    const { seen } = await watch(org.store, ds.id, drainQueue({ concurrency: 1 }))

    // the watcher's statements keep coming: after a first step of STEP_ROWS, SHARED_STEP_ROWS at a time
    const between = seen.filter(s => s.status === 'running' && s.stored > 0 && s.stored < CHUNKS).map(s => s.stored)
    expect(between.some(stored => stored % STEP_ROWS !== 0), `chunks seen between steps: ${[...new Set(between)]}`).toBe(true)
    expect(between.every(stored => stored === STEP_ROWS || (stored - STEP_ROWS) % SHARED_STEP_ROWS === 0)).toBe(true)
    expect(await reload(ds.id)).toMatchObject({ status: 'synched', nbChunks: CHUNKS })
  })

  test('whose step fails leaves nothing of it and reserves no tokens; the job is retried as any failed write', async () => {
    const org = await createStore({ chunkSize: 32, chunkOverlap: 0 })
    // the third step's INSERT fails
    const ds = await addText(org, big(2 * STEP_ROWS + 5))
    await refusingPoison(() => drainQueue({ concurrency: 1 }))

    const failed = await reload(ds.id)
    expect(poisonedAfter(failed.errorMessage)).toBeGreaterThanOrEqual(STEP_ROWS) // the first steps had been written
    expect(failed).toMatchObject({ status: 'pending', nbTokens: 0, nbChunks: 0, leaseOwner: null })
    expect(failed.errorMessage).toMatch(/poisoned chunk/)
    expect(await chunksOf(ds.id)).toHaveLength(0)
  })

  test('stops when its lease is taken between steps; the next owner writes the whole content once', async () => {
    const org = await createStore({ chunkSize: 32, chunkOverlap: 0 })
    const ds = await addText(org, big())
    const { result } = await interrupted(org.store, ds.id)

    expect(result).toEqual(['lease_lost'])
    expect((await chunksOf(ds.id)).length).toBeLessThan(CHUNKS)
    expect(await runJobs([await reload(ds.id)], 'other-worker', { leaseMs: 60_000 })).toEqual(['synched'])
    const chunks = await chunksOf(ds.id)
    expect(chunks.map(c => c.position)).toEqual(Array.from({ length: CHUNKS }, (_, i) => i))
  })

  test("reserves its tokens: the organization's next write counts them, and a job ending without content gives them back with what it left", async () => {
    const org = await createStore({ chunkSize: 32, chunkOverlap: 0 })
    const ds = await addText(org, big())
    await interrupted(org.store, ds.id)
    const reserved = (await reload(ds.id)).nbTokens
    expect(reserved).toBeGreaterThan(CHUNKS * 10)

    // room for the reserved tokens and a little more: a second large document does not fit beside them
    await (await getPrisma()).usageLimit.create({ data: { organizationId: org.organizationId, maxStoredTokens: reserved + 100 } })
    const second = await addText(org, big())
    expect(await drainQueue({ concurrency: 1 })).toBe(1)
    expect(await reload(second.id)).toMatchObject({ status: 'usage_limit_reached', nbTokens: 0 })
    expect(await chunksOf(second.id)).toHaveLength(0)

    // the interrupted job's new owner fails it for good: its reservation goes, and the chunks the interruption left
    expect(await chunksOf(ds.id)).not.toHaveLength(0)
    expect(await settle.error(ds.id, 'other-worker', 'the file could not be read')).toBe(true)
    expect(await reload(ds.id)).toMatchObject({ status: 'error', nbTokens: 0 })
    expect(await chunksOf(ds.id)).toHaveLength(0)
  })
})

describe('a large re-synchronisation', () => {
  const search = async (org: Store, words: string) =>
    (await fulltextRanking((await getDatabase()).sql, scopeOf({ organizationId: org.organizationId, datastoreIds: [org.store.id] }), words, 1000)).length

  /** A datasource of CHUNKS chunks about kettles, synched, whose text is then replaced by `text` and queued again. */
  async function synchedThenReplaced(text: string) {
    const org = await createStore({ chunkSize: 32, chunkOverlap: 0 })
    const ds = await addText(org, big())
    expect(await drainQueue({ concurrency: 1 })).toBe(1)
    const old = await reload(ds.id)
    expect(old).toMatchObject({ status: 'synched', nbChunks: CHUNKS })
    await replaceText(ds.id, text)
    await enqueueDatasources([ds.id])
    return { org, ds, old }
  }

  test('is written in steps; searches find the whole old content until its last step, then the whole new one, never both', async () => {
    const { org, ds, old } = await synchedThenReplaced(bigNew())
    const { seen } = await slowingChunkWrites(30, 'DELETE', () => watch(org.store, ds.id, drainQueue({ concurrency: 1 })))

    // both contents stored at once for a while (steps), a search finding all of one or the other each time
    expect(seen.some(s => s.stored > CHUNKS && s.stored < 2 * CHUNKS)).toBe(true)
    expect(seen.map(s => s.foundEither)).toEqual(seen.map(() => CHUNKS))
    for (const s of seen) expect([0, CHUNKS], JSON.stringify(s)).toContain(s.found)
    for (const s of seen) expect([0, CHUNKS], JSON.stringify(s)).toContain(s.foundNew)
    // the old content until the swap, the new one after: searched before the old one's deletion ended
    expect(seen.some(s => s.found === CHUNKS && s.foundNew === 0 && s.stored > CHUNKS)).toBe(true)
    expect(seen.some(s => s.found === 0 && s.foundNew === CHUNKS && s.stored > CHUNKS)).toBe(true)

    const synched = await reload(ds.id)
    const chunks = await chunksOf(ds.id)
    expect(synched).toMatchObject({ status: 'synched', nbChunks: CHUNKS, syncOutcome: 'changed', hiddenGeneration: null, contentGeneration: old.contentGeneration + 1 })
    expect(chunks.map(c => c.position)).toEqual(chunks.map((_, i) => i))
    expect(chunks.every(c => c.text.includes('teapot'))).toBe(true)
    expect(synched.nbTokens).toBe(chunks.reduce((n, c) => n + c.tokens, 0))
    expect([await search(org, 'kettle vinegar'), await search(org, NEW_WORDS)]).toEqual([0, CHUNKS])
    // the dashboard's view of the datasource's chunks
    const page = await listChunks({ organizationId: org.organizationId, actor: { type: 'user', userId: 'test' } }, ds.id, { limit: 5 })
    expect(page.total).toBe(CHUNKS)
    expect(page.items.every(c => c.text.includes('teapot'))).toBe(true)
  })

  test('to a small content deletes the old chunks in steps, after the new ones are searched', async () => {
    const { org, ds } = await synchedThenReplaced(bigNew(40))
    const { seen } = await slowingChunkWrites(50, 'DELETE', () => watch(org.store, ds.id, drainQueue({ concurrency: 1 })))

    expect(seen.some(s => s.status === 'running' && s.stored > 40 && s.stored < CHUNKS + 40 && s.foundNew === 40)).toBe(true)
    for (const s of seen) expect([CHUNKS, 40], JSON.stringify(s)).toContain(s.foundEither)
    expect(await reload(ds.id)).toMatchObject({ status: 'synched', nbChunks: 40, hiddenGeneration: null })
    expect(await chunksOf(ds.id)).toHaveLength(40)
  })

  test('interrupted leaves the old content searched and the larger of both contents reserved; the next owner deletes what it left', async () => {
    const { org, ds, old } = await synchedThenReplaced(bigNew(CHUNKS + 30))
    const { result } = await slowingChunkWrites(50, 'INSERT', () => interrupted(org.store, ds.id, CHUNKS))

    expect(result).toEqual(['lease_lost'])
    const left = await reload(ds.id)
    expect(left.hiddenGeneration).toBe(old.contentGeneration + 1)
    expect(left.nbTokens).toBeGreaterThan(old.nbTokens)
    expect([await search(org, 'kettle vinegar'), await search(org, NEW_WORDS)]).toEqual([CHUNKS, 0])

    expect(await runJobs([left], 'other-worker', { leaseMs: 60_000 })).toEqual(['synched'])
    const chunks = await chunksOf(ds.id)
    expect(chunks.map(c => c.position)).toEqual(Array.from({ length: CHUNKS + 30 }, (_, i) => i))
    expect(chunks.every(c => c.text.includes('teapot'))).toBe(true)
    expect(await reload(ds.id)).toMatchObject({ status: 'synched', hiddenGeneration: null, nbTokens: chunks.reduce((n, c) => n + c.tokens, 0) })
    expect(await search(org, NEW_WORDS)).toBe(CHUNKS + 30)
  })

  test('interrupted after its swap: the new content is searched, and run again it is found unchanged, the old chunks deleted in steps', async () => {
    const { org, ds, old } = await synchedThenReplaced(bigNew())
    const job = (await claimNextDatasource('slow-worker', 60_000))!
    const { sql } = await getDatabase()
    // the lease taken once the old chunks are being deleted: fewer stored than at the most, more than the new content
    let most = 0
    const takeOver = async (stored: number) => {
      most = Math.max(most, stored)
      if (stored < most && stored > CHUNKS) await sql.query(`UPDATE "Datasource" SET "leaseOwner" = 'other-worker' WHERE id = $1`, [ds.id])
    }
    const { result } = await slowingChunkWrites(50, 'DELETE', () => watch(org.store, ds.id, runJobs([job], 'slow-worker', { leaseMs: 60_000 }), takeOver))

    expect(result).toEqual(['lease_lost'])
    const left = await reload(ds.id)
    expect(left).toMatchObject({ contentGeneration: old.contentGeneration + 1, hiddenGeneration: old.contentGeneration, nbChunks: CHUNKS })
    expect(left.contentHash).not.toBe(old.contentHash)
    expect([await search(org, 'kettle vinegar'), await search(org, NEW_WORDS)]).toEqual([0, CHUNKS])
    const written = (await chunksOf(ds.id)).filter(c => c.text.includes('teapot')).map(c => c.id)

    // run again: the same text, so nothing is chunked, embedded or written again; what was left of the old goes
    expect(await runJobs([left], 'other-worker', { leaseMs: 60_000 })).toEqual(['synched'])
    const chunks = await chunksOf(ds.id)
    expect(chunks.map(c => c.id)).toEqual(written)
    expect(await reload(ds.id)).toMatchObject({ status: 'synched', syncOutcome: 'unchanged', hiddenGeneration: null, nbChunks: CHUNKS, nbTokens: chunks.reduce((n, c) => n + c.tokens, 0) })
  })

  test("interrupted, then ended without content by the next owner: the hidden chunks go, the old content's tokens stay", async () => {
    const { org, ds, old } = await synchedThenReplaced(bigNew(CHUNKS + 30))
    await slowingChunkWrites(50, 'INSERT', () => interrupted(org.store, ds.id, CHUNKS))

    expect(await settle.retry(ds.id, 'other-worker', 'the file could not be read', 60)).toBe(true)
    const chunks = await chunksOf(ds.id)
    expect(chunks).toHaveLength(CHUNKS)
    expect(chunks.every(c => c.text.includes('kettle'))).toBe(true)
    expect(await reload(ds.id)).toMatchObject({ status: 'pending', hiddenGeneration: null, nbTokens: old.nbTokens })
    expect(await search(org, 'kettle vinegar')).toBe(CHUNKS)
  })

  test('whose step fails keeps the old content whole and its tokens; the job is retried as any failed write', async () => {
    const { org, ds, old } = await synchedThenReplaced(bigNew(CHUNKS, 2 * STEP_ROWS + 5))
    await refusingPoison(() => drainQueue({ concurrency: 1 }))

    const failed = await reload(ds.id)
    expect(poisonedAfter(failed.errorMessage)).toBeGreaterThanOrEqual(CHUNKS + STEP_ROWS) // the old content and the first steps
    expect(failed).toMatchObject({ status: 'pending', nbTokens: old.nbTokens, nbChunks: CHUNKS, hiddenGeneration: null, contentGeneration: old.contentGeneration })
    expect(failed.errorMessage).toMatch(/poisoned chunk/)
    const chunks = await chunksOf(ds.id)
    expect(chunks).toHaveLength(CHUNKS)
    expect(chunks.every(c => c.text.includes('kettle'))).toBe(true)
    expect(await search(org, 'kettle vinegar')).toBe(CHUNKS)
  })
})
