import { describe, expect, test } from 'vitest'
import { needsAnalyze } from '@/lib/db/auto-analyze'
import { APPROACHING_SHARE, capacityLevel, capacityMessage, databaseCapacity, PGLITE_CHUNK_CEILING } from '@/lib/db/capacity'
import type { Database } from '@/lib/db/client'

const GiB = 2 ** 30

describe('the embedded database ceiling warning', () => {
  const ceiling = 100_000
  test('ok below the share, approaching from it, over from the ceiling', () => {
    expect(capacityLevel(0, ceiling)).toBe('ok')
    expect(capacityLevel(APPROACHING_SHARE * ceiling - 1, ceiling)).toBe('ok')
    expect(capacityLevel(APPROACHING_SHARE * ceiling, ceiling)).toBe('approaching')
    expect(capacityLevel(ceiling - 1, ceiling)).toBe('approaching')
    expect(capacityLevel(ceiling, ceiling)).toBe('over')
    expect(capacityLevel(10 * ceiling, ceiling)).toBe('over')
  })

  test('the WebAssembly heap near its 2 GiB maximum warns whatever the chunk count', () => {
    expect(capacityLevel(10, ceiling, { bytes: 0.5 * GiB, maxBytes: 2 * GiB })).toBe('ok')
    expect(capacityLevel(10, ceiling, { bytes: 1.7 * GiB, maxBytes: 2 * GiB })).toBe('approaching')
    expect(capacityLevel(10, ceiling, { bytes: 1.95 * GiB, maxBytes: 2 * GiB })).toBe('over')
  })

  test('the message names the way to PostgreSQL', () => {
    expect(capacityMessage('ok', 10, ceiling)).toBeNull()
    const message = capacityMessage('approaching', 85_000, ceiling)!
    expect(message).toContain('85,000 chunks')
    expect(message).toContain('npm run migrate-to-postgres')
    expect(capacityMessage('over', 120_000, ceiling)).toContain('more than the 100,000')
  })

  const fakeDatabase = (kind: 'pglite' | 'postgres', chunks: number, heapBytes = 200 * 2 ** 20) =>
    ({ kind, sql: { query: async () => [{ chunks: String(chunks) }] }, heap: kind === 'pglite' ? () => ({ bytes: heapBytes, maxBytes: 2 * GiB }) : undefined }) as unknown as Database

  test('the ceiling depends on embeddings; PostgreSQL has none', async () => {
    const near = Math.ceil(APPROACHING_SHARE * PGLITE_CHUNK_CEILING.withEmbeddings)
    expect((await databaseCapacity(fakeDatabase('pglite', near), true)).level).toBe('approaching')
    expect((await databaseCapacity(fakeDatabase('pglite', near), false)).level).toBe('ok')
    const pg = await databaseCapacity(fakeDatabase('postgres', 10 * PGLITE_CHUNK_CEILING.fullTextOnly), true)
    expect(pg).toMatchObject({ database: 'postgres', ceiling: null, level: 'ok', message: null })
    expect(await databaseCapacity(fakeDatabase('pglite', 5), true)).toMatchObject({ chunks: 5, level: 'ok', heapMaxBytes: 2 * GiB })
  })
})

describe('ANALYZE by autovacuum\'s rule on the embedded database', () => {
  test('never analysed: once it holds a few hundred chunks', () => {
    expect(needsAnalyze(10, -1)).toBe(false)
    expect(needsAnalyze(500, -1)).toBe(true)
  })
  test('analysed: when the count moved by more than 500 + 10 %', () => {
    expect(needsAnalyze(10_000, 10_000)).toBe(false)
    expect(needsAnalyze(11_400, 10_000)).toBe(false)
    expect(needsAnalyze(11_600, 10_000)).toBe(true)
    expect(needsAnalyze(8_400, 10_000)).toBe(true)
    // a row count without column statistics (CREATE INDEX sets reltuples, ANALYZE never ran): analysed now
    expect(needsAnalyze(10_000, 10_000, false)).toBe(true)
    expect(needsAnalyze(10_000, 10_000, true)).toBe(false)
    expect(needsAnalyze(100, 100, false)).toBe(false)
  })
})

describe('GET /api/health', () => {
  test('says how many chunks the database holds and whether it nears its ceiling (to the organization)', async () => {
    const { GET } = await import('@/app/api/health/route')
    const { getDatabase } = await import('@/lib/db/client')
    const { createTenant } = await import('./helpers/tenants')
    const db = await getDatabase()
    // the details are the organization's (a key) since issue 22: anyone else reads status and database kind only
    const { headers } = await createTenant()
    const res = await (GET as unknown as (req: Request, ctx: unknown) => Promise<Response>)(new Request('http://127.0.0.1/api/health', { headers }), { params: Promise.resolve({}) })
    const body = (await res.json()) as { capacity: { database: string; chunks: number; level: string; ceiling: number | null } }
    expect(res.status).toBe(200)
    expect(body.capacity).toMatchObject({ database: db.kind, level: 'ok' })
    expect(body.capacity.ceiling === null).toBe(db.kind === 'postgres')
    expect(body.capacity.chunks).toBeGreaterThanOrEqual(0)
  })
})
