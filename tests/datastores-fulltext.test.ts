// Without an embeddings provider (OPENAI_API_KEY unset): the datastore says "fulltext" and search uses words only.
import { beforeAll, describe, expect, test } from 'vitest'
import * as datastoreQuery from '@/app/api/datastores/[id]/query/route'
import * as datastoreItem from '@/app/api/datastores/[id]/route'
import * as datastores from '@/app/api/datastores/route'
import * as upsert from '@/app/api/datastores/upsert/[datastoreId]/route'
import { getDatabase } from '@/lib/db/client'
import { drainQueue } from '@/lib/ingest/worker'
import { call } from './helpers/http'
import { createTenant } from './helpers/tenants'

beforeAll(() => {
  delete process.env.OPENAI_API_KEY
  delete process.env.OPENAI_BASE_URL
})

describe('full-text mode', () => {
  test('the datastore says fulltext, chunks have no embedding, and a question still finds its answer by words', async () => {
    const tenant = await createTenant()
    const created = await call(datastores.POST, '/api/datastores', { method: 'POST', headers: tenant.headers, body: { name: 'Words only' } })
    expect(created.json.searchMode).toBe('fulltext')
    const id = created.json.id
    const read = await call(datastoreItem.GET, '/x', { headers: tenant.headers, params: { id } })
    expect(read.json.searchMode).toBe('fulltext')

    const up = await call(upsert.POST, '/x', {
      method: 'POST', headers: tenant.headers, params: { datastoreId: id },
      body: { documents: [
        { text: 'Descaling the espresso machine takes ten minutes with citric acid.', name: 'Descaling' },
        { text: 'The grinder has twelve settings for coarseness.', name: 'Grinder' },
        { text: 'Returns are accepted within thirty days.', name: 'Returns' },
      ] },
    })
    await drainQueue()
    const { sql } = await getDatabase()
    const [{ n }] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Chunk" WHERE "datastoreId" = $1 AND embedding IS NOT NULL`, [id])
    expect(n).toBe(0)

    // every word of the question need not appear: any shared word makes a candidate, more shared words rank higher
    const res = await call(datastoreQuery.POST, '/x', { method: 'POST', headers: tenant.headers, params: { id }, body: { query: 'How do I descale my espresso machine?' } })
    expect(res.status).toBe(200)
    expect(res.json[0]).toMatchObject({ datasource_id: up.json.ids[0], datasource_name: 'Descaling', source: 'Descaling' })
    // every word of the question, each once: near BM25's ceiling for it (lib/search/relevance.ts)
    expect(res.json[0].score).toBeGreaterThan(0.8)
    expect(res.json.map((f: any) => f.datasource_id)).not.toContain(up.json.ids[2])
    const none = await call(datastoreQuery.POST, '/x', { method: 'POST', headers: tenant.headers, params: { id }, body: { query: 'volcano' } })
    expect(none.json).toEqual([])
  })
})
