// A question's retrieval statements whose plan is the same whatever their parameters (BM25's rounds, driven by the
// full-text index; the chunks read by id) run on a generic plan once prepared, instead of being planned again at each
// run (lib/db/sql-driver.ts GENERIC_PLAN). The embedded database's one session shows its prepared statements and how
// each was planned (pg_prepared_statements); on PostgreSQL each pooled connection has its own, hence PGlite only.
import { beforeAll, describe, expect, test } from 'vitest'
import { getDatabase } from '@/lib/db/client'
import { hybridSearch } from '@/lib/search/hybrid-search'
import { seedDatastore } from './helpers/agents'
import { createTenant } from './helpers/tenants'

beforeAll(() => {
  delete process.env.OPENAI_API_KEY
  delete process.env.OPENAI_BASE_URL
  // BM25's statements, not the postings kept in memory (tests/search-bm25-memory.test.ts)
  process.env.SEARCH_MEMORY_CHUNKS = '0'
})

describe.skipIf(process.env.TEST_DATABASE === 'postgres')('retrieval statements planned once', () => {
  test('after a few searches, BM25 rounds and the chunks read by id have run on generic plans only', async () => {
    const tenant = await createTenant()
    const texts = Array.from({ length: 40 }, (_, i) => ({ text: `Refund policy number ${i}: refunds within ${i + 10} days for orders of kind ${i % 7}.` }))
    const { datastoreId } = await seedDatastore(tenant, texts)
    for (let i = 0; i < 6; i++) {
      const found = await hybridSearch({ organizationId: tenant.ctx.organizationId, datastoreIds: [datastoreId], query: 'refund days orders', topK: 3 })
      expect(found).toHaveLength(3)
    }
    const { sql } = await getDatabase()
    const plans = await sql.query<{ statement: string; generic: number; custom: number }>(
      `SELECT statement, generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements
       WHERE statement LIKE '%c.tsv @@%' OR statement LIKE '%AS chunk_custom_id%'`,
    )
    const kinds = (part: string) => plans.filter(p => p.statement.includes(part))
    for (const part of ['c.tsv @@', 'AS chunk_custom_id']) {
      expect(kinds(part).length).toBeGreaterThan(0)
      expect(kinds(part).every(p => p.custom === 0 && p.generic > 0)).toBe(true)
    }
  })
})
