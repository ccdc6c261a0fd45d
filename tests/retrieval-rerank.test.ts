// Issue 13.2: an optional reranker over the fused candidates; when it fails or is slow, the fused order stands.
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import * as datastoreQuery from '@/app/api/datastores/[id]/query/route'
import { createAgentVia, queryAgentVia, useFakeModel } from './helpers/agents'
import { overlapScore, startFakeReranker, type FakeReranker } from './helpers/fake-reranker'
import { call } from './helpers/http'
import { upsertedDatastore } from './helpers/retrieval'
import { createTenant, type TestTenant } from './helpers/tenants'

useFakeModel()
let reranker: FakeReranker

beforeAll(async () => {
  reranker = await startFakeReranker()
})
afterAll(() => reranker.close())

const QUESTION = 'what is the kettle warranty'
const DOCS = [
  // first by words (the question's rare words, often), last by the reranker (2 of its 4 words)
  { text: 'Kettle warranty. Kettle warranty. Kettle warranty.', name: 'repeated.md' },
  // the reranker's first: 3 of its 4 words
  { text: 'What the warranty covers on every kettle we make: two years, parts and labour, from the day of purchase.', name: 'answer.md' },
  { text: 'The toaster warranty is one year.', name: 'toaster.md' },
]

function useReranker(env: Record<string, string> = {}) {
  process.env.RERANK_BASE_URL = reranker.baseURL
  process.env.RERANK_MODEL = 'fake-rerank-1'
  process.env.RERANK_API_KEY = 'rk-secret-key'
  Object.assign(process.env, env)
}

const store = (tenant: TestTenant) => upsertedDatastore(tenant, DOCS, 'Help')

const query = async (tenant: TestTenant, id: string, body: Record<string, unknown> = {}) =>
  (await call(datastoreQuery.POST, `/api/datastores/${id}/query`, { method: 'POST', headers: tenant.headers, params: { id }, body: { query: QUESTION, topK: 2, ...body } })).json
const names = (fragments: { datasource_name: string }[]) => fragments.map(f => f.datasource_name)

describe('reranker', () => {
  afterEach(() => {
    for (const name of ['RERANK_BASE_URL', 'RERANK_MODEL', 'RERANK_API_KEY', 'RERANK_TIMEOUT_MS', 'RERANK_CANDIDATES', 'LOG_LEVEL']) delete process.env[name]
    process.env.LOG_LEVEL = 'error'
    reranker.reset()
    vi.restoreAllMocks()
  })

  test('the fused candidates are reranked, the top K kept, and its relevance_score is the score', async () => {
    const tenant = await createTenant()
    const id = await store(tenant)
    const fused = await query(tenant, id)
    expect(names(fused)[0]).toBe('repeated.md')

    useReranker()
    const reranked = await query(tenant, id)
    expect(names(reranked)).toEqual(['answer.md', 'repeated.md'])
    expect(reranked.map((f: { score: number }) => f.score)).toEqual([overlapScore(QUESTION, DOCS[1].text), overlapScore(QUESTION, DOCS[0].text)].map(s => Math.round(s * 1e4) / 1e4))
    const [sent] = reranker.requests
    expect(sent).toMatchObject({ model: 'fake-rerank-1', query: QUESTION, top_n: 2, authorization: 'Bearer rk-secret-key' })
    // every candidate the fusion kept (RERANK_CANDIDATES at most), not only the top K
    expect(sent.documents).toHaveLength(3)
  })

  test('RERANK_CANDIDATES bounds what it reorders', async () => {
    const tenant = await createTenant()
    const id = await store(tenant)
    useReranker({ RERANK_CANDIDATES: '2' })
    await query(tenant, id, { topK: 1 })
    expect(reranker.requests[0].documents).toHaveLength(2)
  })

  test.each([['error'], ['garbage']] as const)('a reranker answering %s leaves the fused order, with one log line and no secret', async mode => {
    const tenant = await createTenant()
    const id = await store(tenant)
    const fused = await query(tenant, id)
    useReranker({ LOG_LEVEL: 'warn' })
    reranker.setBehaviour({ mode })
    const lines: string[] = []
    vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(String(line)))
    expect(await query(tenant, id)).toEqual(fused)
    const logged = lines.filter(l => l.includes('reranker'))
    expect(logged).toHaveLength(1)
    expect(logged[0]).toContain('keeping the fused order')
    expect(logged[0]).not.toContain('rk-secret-key')
  })

  test('a reranker that never answers is abandoned after RERANK_TIMEOUT_MS, and the fused order stands', async () => {
    const tenant = await createTenant()
    const id = await store(tenant)
    const fused = await query(tenant, id)
    useReranker({ RERANK_TIMEOUT_MS: '300' })
    reranker.setBehaviour({ mode: 'hang' })
    const started = Date.now()
    expect(await query(tenant, id)).toEqual(fused)
    expect(Date.now() - started).toBeLessThan(20_000)
  })

  test('an agent\'s sources are the reranked fragments', async () => {
    const tenant = await createTenant()
    const id = await store(tenant)
    const agent = await createAgentVia(tenant, { datastoreIds: [id] })
    useReranker()
    const res = await queryAgentVia(agent.id, { query: QUESTION }, tenant.headers)
    expect(res.status).toBe(200)
    expect(res.json.sources[0].datasource_name).toBe('answer.md')
    expect(reranker.requests).toHaveLength(1)
  })
})
