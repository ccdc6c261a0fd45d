import http from 'node:http'
import type { AddressInfo } from 'node:net'

// A fake reranker speaking the common /rerank API on 127.0.0.1 ({model, query, documents, top_n} → {results: [{index,
// relevance_score}]}), answering at once. Its relevance: the share of the query's words (3 letters or more, a final
// "s" dropped) found in the document. Scriptable: setBehaviour({mode: 'error' | 'hang' | 'garbage', delayMs}).
// No vitest here: the answers benchmark (scripts/bench-answers.ts) uses it too.

export interface FakeRerankerBehaviour {
  mode?: 'error' | 'hang' | 'garbage'
  delayMs?: number
}

export interface FakeReranker {
  /** The base URL to set as RERANK_BASE_URL. */
  baseURL: string
  requests: { model: string; query: string; documents: string[]; top_n?: number; authorization?: string }[]
  setBehaviour(b: FakeRerankerBehaviour): void
  reset(): void
  close(): Promise<void>
}

const words = (text: string) =>
  new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter(w => w.length >= 3).map(w => w.replace(/s$/, '')))

export function overlapScore(query: string, document: string): number {
  const q = words(query)
  if (q.size === 0) return 0
  const d = words(document)
  return [...q].filter(w => d.has(w)).length / q.size
}

export async function startFakeReranker(port = 0): Promise<FakeReranker> {
  let behaviour: FakeRerankerBehaviour = {}
  const requests: FakeReranker['requests'] = []
  const sockets = new Set<import('node:net').Socket>()
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}')
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(value))
    }
    if (req.url !== '/rerank' || req.method !== 'POST') return json(404, { error: 'not found' })
    requests.push({ ...body, authorization: req.headers.authorization })
    const b = behaviour
    if (b.mode === 'hang') return
    if (b.delayMs) await new Promise(r => setTimeout(r, b.delayMs))
    if (b.mode === 'error') return json(503, { error: 'overloaded (fake)' })
    if (b.mode === 'garbage') return json(200, { data: 'not results' })
    const documents: string[] = body.documents ?? []
    const results = documents
      .map((d, index) => ({ index, relevance_score: overlapScore(body.query ?? '', d) }))
      .sort((a, c) => c.relevance_score - a.relevance_score || a.index - c.index)
      .slice(0, body.top_n ?? documents.length)
    json(200, { results })
  })
  server.on('connection', s => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>(resolve => server.listen(port, '127.0.0.1', resolve))
  const { port: bound } = server.address() as AddressInfo
  return {
    baseURL: `http://127.0.0.1:${bound}`,
    requests,
    setBehaviour: b => (behaviour = b),
    reset: () => {
      behaviour = {}
      requests.length = 0
    },
    close: () =>
      new Promise(resolve => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}
