// Hybrid fusion on multi-chunk documents (lib/search/fusion.ts): the chunk that holds the answer, far ahead by words,
// stays first against short chunks of other documents that both rankings place moderately well, the failure of
// reciprocal rank fusion described in issue 11.
import { describe, expect, test } from 'vitest'
import { embedText } from '@/e2e/support/fake-openai-server.mjs'
import { getDatabase, getPrisma } from '@/lib/db/client'
import { newId } from '@/lib/db/ids'
import { toVectorLiteral } from '@/lib/embeddings/provider'
import { fulltextRankingWithCeiling } from '@/lib/search/fulltext'
import { hybridSearch } from '@/lib/search/hybrid-search'
import { scopeOf } from '@/lib/search/scope'
import { useFakeEmbeddings } from './helpers/fake-embeddings'
import { createTenant } from './helpers/tenants'

const DIMENSIONS = 64
useFakeEmbeddings(DIMENSIONS)

const FILLER = 'This section of the manual covers the product in general terms, with notes on care, storage and safety for every owner.'

// [question, the answer (its specific words), short notes of other documents sharing one word of the question]
const CASES: [string, string, string[]][] = [
  ['How do I descale the espresso machine with citric acid?', 'To descale the espresso machine, dissolve citric acid in warm water and run it through twice.', ['Espresso cups.', 'Machine colours.']],
  ['How long is the warranty of the kettle?', 'The kettle warranty lasts two years from the date of purchase, parts and labour included.', ['Kettle colours.', 'Long cable.']],
  ['Which filter does the vacuum cleaner use?', 'The vacuum cleaner uses a washable HEPA filter; rinse the filter monthly and let it dry.', ['Vacuum storage.', 'Cleaner scent.']],
  ['How do I reset the router password?', 'To reset the router password, hold the reset button for ten seconds, then log in with admin.', ['Router placement.', 'Password manager.']],
  ['What temperature should the oven be for bread?', 'Bake bread with the oven at 220 degrees; the temperature drops to 200 after ten minutes.', ['Oven trays.', 'Bread knives.']],
  ['How often should the dishwasher salt be refilled?', 'Refill the dishwasher salt every month, or when the salt indicator light comes on.', ['Dishwasher noise.', 'Salt brands.']],
  ['Can the blender crush ice cubes?', 'The blender crushes ice cubes with the pulse setting; add a little water for smooth results.', ['Blender jars.', 'Ice trays.']],
  ['How do I clean the coffee grinder burrs?', 'Clean the coffee grinder burrs with a dry brush after removing the upper burr ring.', ['Coffee beans.', 'Grinder noise.']],
  ['What battery does the smoke detector need?', 'The smoke detector needs one 9 volt battery; replace the battery every year.', ['Detector placement.', 'Battery recycling.']],
  ['How do I pair the headphones with bluetooth?', 'To pair the headphones with bluetooth, hold the power button until the light flashes blue.', ['Headphones case.', 'Bluetooth speakers.']],
]

describe('hybrid fusion on multi-chunk documents', () => {
  test('the right document comes first for every question', async () => {
    const tenant = await createTenant()
    const prisma = await getPrisma()
    const { sql } = await getDatabase()
    const store = await prisma.datastore.create({ data: { organizationId: tenant.ctx.organizationId, name: 'manuals' } })
    const answers = new Map<string, string>()
    const write = async (name: string, chunks: string[]) => {
      const ds = await prisma.datasource.create({
        data: { organizationId: tenant.ctx.organizationId, datastoreId: store.id, type: 'text', name, status: 'synched', nbChunks: chunks.length },
      })
      for (const [position, text] of chunks.entries()) {
        await sql.query(
          `INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens, embedding) VALUES ($1, $2, $3, $4, $5, $6, 50, $7::vector)`,
          [newId(), tenant.ctx.organizationId, store.id, ds.id, position, text, toVectorLiteral(embedText(text, DIMENSIONS))],
        )
      }
      return ds.id
    }
    for (const [i, [, answer, notes]] of CASES.entries()) {
      // the manual: an introduction, the section with the answer, an appendix; short notes elsewhere
      answers.set(CASES[i][0], await write(`Manual ${i}`, [FILLER, `${answer} ${FILLER}`, `Appendix ${i}: ${FILLER}`]))
      for (const [n, note] of notes.entries()) await write(`Note ${i}.${n}`, [note])
    }
    const misses: string[] = []
    for (const [question] of CASES) {
      const [first] = await hybridSearch({ organizationId: tenant.ctx.organizationId, datastoreIds: [store.id], query: question, topK: 5 })
      if (first?.datasource_id !== answers.get(question)) misses.push(`${question} → ${first?.datasource_name}`)
    }
    expect(misses).toEqual([])
  })

  test('every candidate is scored on both sides: one outside the full-text top K keeps its BM25 in the fusion', async () => {
    const tenant = await createTenant()
    const prisma = await getPrisma()
    const { sql } = await getDatabase()
    const organizationId = tenant.ctx.organizationId
    const store = await prisma.datastore.create({ data: { organizationId, name: 'kettles' } })
    const ds = await prisma.datasource.create({ data: { organizationId, datastoreId: store.id, type: 'text', name: 'notes', status: 'synched', nbChunks: 3 } })
    const question = 'kettle warranty years'
    const asked = embedText(question, DIMENSIONS)
    // by words "Kettle warranty…" is first, but its embedding is the question's opposite; "The kettle is blue." holds
    // one word of the question and has the question's own embedding
    const chunks: [string, number[]][] = [
      ['Kettle warranty: two years, kettle warranty years kept.', asked.map((x: number) => -x)],
      ['The kettle is blue.', asked],
      ['Toaster crumbs tray.', embedText('Toaster crumbs tray.', DIMENSIONS)],
    ]
    for (const [position, [text, embedding]] of chunks.entries()) {
      await sql.query(
        `INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens, embedding) VALUES ($1, $2, $3, $4, $5, $6, 20, $7::vector)`,
        [newId(), organizationId, store.id, ds.id, position, text, toVectorLiteral(embedding)],
      )
    }
    const input = { organizationId, datastoreIds: [store.id], query: question }
    const exact = await fulltextRankingWithCeiling(sql, scopeOf(input, { datastoreIndex: false }), question, 10)
    expect(exact.ranking).toHaveLength(2)
    const blueBm25 = exact.ranking[1].score
    expect(blueBm25).toBeGreaterThan(0)
    // topK 1: the full-text ranking contributes its first chunk only; "blue" comes from the vector ranking, and is
    // scored by words too: 0.5 · its BM25 over the question's ceiling + 0.5 · cosine 1 (not 0.5 · 0 + 0.5)
    const [first] = await hybridSearch({ ...input, topK: 1 })
    expect(first.text).toBe('The kettle is blue.')
    expect(first.score).toBeCloseTo(0.5 * Math.min(1, blueBm25 / exact.ceiling) + 0.5, 3)
    expect(first.score).toBeGreaterThan(0.55)
  })
})
