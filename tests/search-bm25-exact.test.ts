// The pruned BM25 ranking (MaxScore rounds, then the chunks holding enough of the remaining terms together:
// lib/search/bm25-candidates.ts) returns exactly the top of the exhaustive ranking: same chunks, same scores, same
// order, on text where a few words are in most chunks and most words in few (Zipf).
import { describe, expect, test } from 'vitest'
import { getDatabase, getPrisma } from '@/lib/db/client'
import { rankByBm25, textStatistics } from '@/lib/search/fulltext'
import { scopeOf } from '@/lib/search/scope'
import { createTenant } from './helpers/tenants'

function zipfText(random: () => number, vocabulary: string[], words: number): string {
  const out: string[] = []
  for (let i = 0; i < words; i++) out.push(vocabulary[Math.min(vocabulary.length - 1, Math.floor(1 / (random() + 1 / vocabulary.length)) - 1)])
  return out.join(' ')
}

describe('the pruned BM25 ranking is exact', () => {
  test('its top 10 and top 40 equal those of scoring every candidate, on 3,000 chunks', { timeout: 240_000 }, async () => {
    let seed = 11
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647)
    const letters = 'bcdfghjklmnprstvz'
    const vocabulary = Array.from({ length: 3000 }, (_, i) => `w${letters[i % 17]}${letters[Math.floor(i / 17) % 17]}${letters[Math.floor(i / 289) % 17]}x`)
    const tenant = await createTenant()
    const prisma = await getPrisma()
    const { sql } = await getDatabase()
    const store = await prisma.datastore.create({ data: { organizationId: tenant.ctx.organizationId, name: 'zipf', language: 'simple' } })
    const ds = await prisma.datasource.create({ data: { organizationId: tenant.ctx.organizationId, datastoreId: store.id, type: 'text', name: 'z', status: 'synched' } })
    const texts = Array.from({ length: 3000 }, () => zipfText(random, vocabulary, 20 + Math.floor(random() * 80)))
    for (let i = 0; i < texts.length; i += 500) {
      const rows = texts.slice(i, i + 500)
      await sql.query(
        `INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens)
         SELECT 'z' || lpad((n + $5)::text, 5, '0'), $1, $2, $3, n + $5, t, 10 FROM unnest($4::text[]) WITH ORDINALITY AS u(t, n)`,
        [tenant.ctx.organizationId, store.id, ds.id, rows, i],
      )
    }
    const scope = scopeOf({ organizationId: tenant.ctx.organizationId, datastoreIds: [store.id] }, { datastoreIndex: false })
    for (let q = 0; q < 25; q++) {
      // a few common words and a few rare ones, as questions are
      const question = [zipfText(random, vocabulary.slice(0, 60), 5), zipfText(random, vocabulary.slice(0, 600), 3), zipfText(random, vocabulary, 2)].join(' ')
      await sql.transaction(async tx => {
        await tx.exec('SET LOCAL enable_seqscan = off')
        const stats = await textStatistics(tx, scope, question)
        const all = await rankByBm25(tx, scope, stats, texts.length)
        // [limit, budget of a round, budget of the first round]
        for (const [limit, budget, first] of [[10, 1500, 1500], [10, 1500, 300], [40, 1500, 300], [40, 1500, 30], [10, 20, 20], [10, 100, 100], [40, 200, 50]]) {
          const pruned = await rankByBm25(tx, scope, stats, limit, budget, first)
          expect(pruned.map(r => r.id), `${question} (limit ${limit}, budget ${budget}, first ${first})`).toEqual(all.slice(0, limit).map(r => r.id))
          pruned.forEach((r, i) => expect(r.score).toBeCloseTo(all[i].score, 4))
        }
      })
    }
  })
})
