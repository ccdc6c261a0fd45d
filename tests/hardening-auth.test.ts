// Hardening (issue 6) part 2: the auth matrix. Every endpoint × {no header, "Bearer" with nothing, unknown key,
// revoked key, another organization's key, a signed-in session sent from another origin} → 401 (no valid
// credentials) or 404 (valid credentials of another organization), nothing written, and no data of the other
// tenant in the body. Public agents (GET and query) are the documented exception: anyone may use them.
import { randomBytes } from 'node:crypto'
import { encode } from 'next-auth/jwt'
import { beforeAll, describe, expect, test } from 'vitest'
import { useFakeModel } from './helpers/agents'
import { describeEndpoint, ENDPOINTS, type EndpointSpec } from './helpers/hardening/endpoints'
import { renderJson, type Probe } from './helpers/hardening/inputs'
import { ownerCredentials, resolveParams, send, validProbe } from './helpers/hardening/probe'
import { changes, snapshot } from './helpers/hardening/snapshot'
import { createTenantWorld, MARKER, type TenantWorld } from './helpers/hardening/world'
import { expectErrorBody } from './helpers/http'

process.env.LIMIT_PUBLIC_QUERIES_PER_MINUTE = '1000000'
const model = useFakeModel()
let a: TenantWorld
let b: TenantWorld
let cookie: string

beforeAll(async () => {
  a = await createTenantWorld('A', MARKER)
  b = await createTenantWorld('B')
  cookie = `next-auth.session-token=${await encode({ token: { sub: a.userId }, secret: process.env.NEXTAUTH_SECRET! })}`
})

type Credential = { name: string; headers: () => Record<string, string>; kind: 'none' | 'other-org' }
const CREDENTIALS: Credential[] = [
  { name: 'no Authorization header', headers: () => ({}), kind: 'none' },
  { name: '"Bearer" with nothing', headers: () => ({ authorization: 'Bearer' }), kind: 'none' },
  { name: '"Bearer " with a space', headers: () => ({ authorization: 'Bearer ' }), kind: 'none' },
  { name: 'Basic credentials', headers: () => ({ authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` }), kind: 'none' },
  { name: 'an unknown key', headers: () => ({ authorization: `Bearer ads_${randomBytes(32).toString('base64url')}` }), kind: 'none' },
  { name: "the owner's revoked key", headers: () => ({ authorization: `Bearer ${a.revokedKey}` }), kind: 'none' },
  { name: 'a session cookie from another origin', headers: () => ({ cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }), kind: 'none' },
  { name: 'a session cookie, cross-site fetch without Origin', headers: () => ({ cookie, 'sec-fetch-site': 'cross-site' }), kind: 'none' },
  { name: 'a session cookie with a foreign Origin', headers: () => ({ cookie, origin: 'https://evil.example' }), kind: 'none' },
  { name: 'a session cookie from a sibling site', headers: () => ({ cookie, origin: 'https://app.localhost', 'sec-fetch-site': 'same-site' }), kind: 'none' },
  { name: "another organization's key", headers: () => b.headers, kind: 'other-org' },
]


/** Texts and ids of tenant A that must never appear in an answer to anyone else. */
function privateOfA(): string[] {
  return [`${MARKER} system prompt`, `${MARKER} store`, `${MARKER} doc`, `${MARKER} question`, `${MARKER} answer`, `${MARKER} spare key`, `${MARKER}-cid`, a.datastoreId, a.datasourceId, a.conversationId, a.visitorId, a.spareKeyId]
}

const guarded = ENDPOINTS.filter(e => e.auth !== 'none')
let tried = 0

describe('the auth matrix', () => {
  test('the session cookie of the matrix is valid: the same request from the same origin is served', async () => {
    const { answer } = await send(ENDPOINTS.find(e => e.file === 'app/api/datastores/route.ts' && e.method === 'GET')!, validProbe(ENDPOINTS[0], a), {}, { cookie, origin: 'http://localhost', 'sec-fetch-site': 'same-origin' })
    expect(answer.status).toBe(200)
    expect(answer.text).toContain(`${MARKER} store`)
  })

  for (const spec of guarded) {
    test(`${describeEndpoint(spec)}: refused without valid credentials of the owner, leaking nothing`, async () => {
      model.fake.setBehaviour({ reply: 'Two years.', delayMs: 0 })
      const probe = validProbe(spec, a)
      for (const credential of CREDENTIALS) {
        const params = await resolveParams(spec, probe, a, b)
        const before = await snapshot()
        const { answer } = await send(spec, probe, params, credential.headers())
        tried++
        const where = `${describeEndpoint(spec)} with ${credential.name} → ${answer.status} ${answer.text.slice(0, 200)}`
        const namesA = Object.keys(spec.params).length > 0
        const expected = credential.kind === 'none' ? 401 : namesA ? 404 : answer.status
        expect(answer.status, where).toBe(expected)
        if (answer.status >= 400) {
          expectErrorBody(answer.json)
          expect(changes(before, await snapshot()), `a refused request wrote: ${where}`).toEqual({})
        } else {
          expect(answer.status, where).toBeLessThan(300)
        }
        for (const secret of privateOfA()) expect(answer.text, `${where} leaks ${secret}`).not.toContain(secret)
      }
      // the owner's own key (its session, for session-only endpoints) is served, so the refusals above are about credentials only
      const own = await send(spec, probe, await resolveParams(spec, probe, a, b), await ownerCredentials(spec, a))
      expect(own.answer.status, `${describeEndpoint(spec)} with the owner's key → ${own.answer.text.slice(0, 200)}`).toBeLessThan(300)
    })
  }
})

describe('public agents, the documented exception', () => {
  const agentGet = ENDPOINTS.find(e => e.file === 'app/api/agents/[id]/route.ts' && e.method === 'GET')!
  const agentQuery = ENDPOINTS.find(e => e.file === 'app/api/agents/[id]/query/route.ts')!

  test('anyone may read the name and description of a public agent, and nothing private', async () => {
    for (const credential of [CREDENTIALS[0], CREDENTIALS[6], CREDENTIALS[10]]) {
      const { answer } = await send(agentGet, { label: 'public', params: {}, search: {}, headers: {} }, { id: a.publicAgentId }, credential.headers())
      expect(answer.status, credential.name).toBe(200)
      // and its public face (issue 14): how the chat looks, whether visitors must be signed
      expect(Object.keys(answer.json).sort()).toEqual(['appearance', 'description', 'id', 'name', 'requireSignedVisitors', 'visibility'])
      for (const secret of privateOfA()) expect(answer.text).not.toContain(secret)
      expect(answer.text).not.toContain('datastoreIds')
    }
  })

  test('anyone may query a public agent; bad credentials are still refused', async () => {
    model.fake.setBehaviour({ reply: 'Two years.', delayMs: 0 })
    const body = renderJson({ query: 'What is the warranty?' })
    const ask = (headers: Record<string, string>) => send(agentQuery, { label: 'public query', params: {}, search: {}, headers: { 'content-type': 'application/json' }, body }, { id: a.publicAgentId }, headers)
    const anonymous = await ask({})
    expect(anonymous.answer.status).toBe(200)
    expect(anonymous.answer.json.answer).toBe('Two years.')
    expect((await ask(b.headers)).answer.status).toBe(200)
    for (const credential of CREDENTIALS.filter(c => c.kind === 'none' && c.headers().authorization)) {
      expect((await ask(credential.headers())).answer.status, credential.name).toBe(401)
    }
  })

  test("a caller of the public agent cannot continue another visitor's conversation or reuse the owner's visitor", async () => {
    const body = (extra: Record<string, string>) => renderJson({ query: 'And the price?', ...extra })
    const ask = (extra: Record<string, string>) => send(agentQuery, { label: 'public', params: {}, search: {}, headers: { 'content-type': 'application/json' }, body: body(extra) }, { id: a.publicAgentId }, {})
    expect((await ask({ conversationId: a.conversationId })).answer.status).toBe(404)
    expect((await ask({ visitorId: b.visitorId })).answer.status).toBe(404)
  })
})

describe('ids of another tenant inside bodies', () => {
  const find = (file: string, method: string) => ENDPOINTS.find(e => e.file === file && e.method === method)!
  const json = (spec: EndpointSpec, params: Record<string, string>, value: unknown, headers = b.headers) =>
    send(spec, { label: 'cross-tenant body', params: {}, search: {}, headers: { 'content-type': 'application/json' }, body: renderJson(value) }, params, headers)

  test("B cannot attach A's datastore to an agent, upload into it, create a page in it, or replace A's document", async () => {
    const before = await snapshot()
    const cases = [
      await json(find('app/api/agents/route.ts', 'POST'), {}, { name: 'x', datastoreIds: [a.datastoreId] }),
      await json(find('app/api/agents/[id]/route.ts', 'PATCH'), { id: b.agentId }, { description: 'x', datastoreIds: [a.datastoreId] }),
      await json(find('app/api/datasources/route.ts', 'POST'), {}, { datastoreId: a.datastoreId, type: 'web_page', config: { source_url: 'https://example.com/' } }),
      await json(find('app/api/datastores/upsert/[datastoreId]/route.ts', 'POST'), { datastoreId: b.datastoreId }, { documents: [{ id: a.datasourceId, text: 'overwritten' }] }),
      await json(find('app/api/agents/[id]/query/route.ts', 'POST'), { id: b.agentId }, { query: 'hi', conversationId: a.conversationId }),
      await json(find('app/api/agents/[id]/query/route.ts', 'POST'), { id: b.agentId }, { query: 'hi', visitorId: a.visitorId }),
    ]
    for (const { answer } of cases) {
      expect(answer.status, answer.text).toBe(404)
      // an id the caller sent may be echoed in the message; nothing else of A may appear
      for (const secret of privateOfA().filter(s => s.startsWith(MARKER))) expect(answer.text).not.toContain(secret)
    }
    const multipart = await send(find('app/api/datasources/route.ts', 'POST'), { label: 'form', params: {}, search: {}, headers: {}, body: { form: { type: 'file', datastoreId: a.datastoreId, file: new File(['x'], 'x.txt', { type: 'text/plain' }) } } }, {}, b.headers)
    expect(multipart.answer.status).toBe(404)
    expect(changes(before, await snapshot())).toEqual({})
    tried += 7
  })

  test("filters naming A's datasources or custom ids find nothing of A from B's datastore and agent", async () => {
    const { getDatabase } = await import('@/lib/db/client')
    const { sql } = await getDatabase()
    await sql.query(`INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens, custom_id) VALUES ($1, $2, $3, $4, 0, $5, 5, $6)`, [
      `chunk-${a.datasourceId}`, a.ctx.organizationId, a.datastoreId, a.datasourceId, `${MARKER} doc warranty text`, `${MARKER}-cid`,
    ])
    // synched, as the worker leaves it (a first synchronisation's chunks are searched once it is)
    await sql.query(`UPDATE "Datasource" SET status = 'synched', "lastSynch" = now() WHERE id = $1`, [a.datasourceId])
    const query = await json(find('app/api/datastores/[id]/query/route.ts', 'POST'), { id: b.datastoreId }, { query: 'warranty text', filters: { datasource_ids: [a.datasourceId], custom_ids: [`${MARKER}-cid`] } })
    expect(query.answer.status).toBe(200)
    expect(query.answer.json).toEqual([])
    const asOwner = await json(find('app/api/datastores/[id]/query/route.ts', 'POST'), { id: a.datastoreId }, { query: 'warranty text' }, a.headers)
    expect(asOwner.answer.text).toContain(`${MARKER} doc warranty text`)
    model.fake.setBehaviour({ reply: 'Nothing.', delayMs: 0 })
    const agent = await json(find('app/api/agents/[id]/query/route.ts', 'POST'), { id: b.agentId }, { query: 'warranty text', filters: { datasource_ids: [a.datasourceId] } })
    expect(agent.answer.status).toBe(200)
    expect(agent.answer.json.sources).toEqual([])
    expect(JSON.stringify(model.fake.chatRequests())).not.toContain(MARKER)
    tried += 3
  })

  test('the matrix ran', () => {
    console.log(`hardening auth matrix: ${tried} requests over ${guarded.length} endpoints × ${CREDENTIALS.length} credentials`)
    expect(tried).toBeGreaterThanOrEqual(guarded.length * CREDENTIALS.length)
  })
})
