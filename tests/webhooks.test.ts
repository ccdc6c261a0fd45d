// Outgoing webhooks: endpoints managed over the API, deliveries signed, retried with backoff through the Postgres
// queue, refused on private addresses unless allowed, and events of each kind.
import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import * as deliveries from '@/app/api/webhooks/[id]/deliveries/route'
import * as item from '@/app/api/webhooks/[id]/route'
import * as resend from '@/app/api/webhooks/deliveries/[id]/resend/route'
import * as collection from '@/app/api/webhooks/route'
import { getDatabase, getPrisma } from '@/lib/db/client'
import { drainWebhooks } from '@/lib/ingest/background'
import { drainQueue } from '@/lib/ingest/worker'
import { emitEvent } from '@/lib/webhooks'
import { createAgentVia, queryAgentVia, seedDatastore, useFakeModel } from './helpers/agents'
import { call } from './helpers/http'
import { createTenant, type TestTenant } from './helpers/tenants'
import { addWeb, createStore } from './fixtures/ingest'
import { page, serveSite, sitemap, type TestSite } from './fixtures/web-server'

useFakeModel()

interface Received {
  headers: http.IncomingHttpHeaders
  body: string
}

/** A receiver on 127.0.0.1 answering the statuses given in turn (then 200), recording what it received. */
async function receiver(statuses: number[] = []) {
  const received: Received[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', c => chunks.push(c))
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
      res.writeHead(statuses.shift() ?? 200).end('ok')
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  closers.push(() => new Promise(resolve => server.close(() => resolve())))
  return { url, received }
}

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
  for (const name of ['WEBHOOK_ALLOW_PRIVATE_HOSTS', 'CRAWLER_ALLOW_PRIVATE_HOSTS', 'WEBHOOK_RETRY_BASE_SECONDS']) delete process.env[name]
})

async function subscribe(tenant: TestTenant, url: string, events: string[]) {
  const res = await call(collection.POST, '/api/webhooks', { method: 'POST', headers: tenant.headers, body: { url, events } })
  expect(res.status, res.text).toBe(201)
  return res.json as { id: string; secret: string; secretPrefix: string }
}

async function deliveriesOf(tenant: TestTenant, webhookId: string) {
  const res = await call(deliveries.GET, `/api/webhooks/${webhookId}/deliveries`, { headers: tenant.headers, params: { id: webhookId } })
  expect(res.status).toBe(200)
  return res.json as { id: string; event: string; status: string; attempts: number; responseStatus: number | null; lastError: string | null; body: any }[]
}

describe('webhook endpoints', () => {
  test('the signing secret is answered once, stored encrypted, and never returned again', async () => {
    const tenant = await createTenant()
    const created = await subscribe(tenant, 'https://hooks.example.com/in', ['datasource.synched'])
    expect(created.secret).toMatch(/^whsec_/)
    const listed = await call(collection.GET, '/api/webhooks', { headers: tenant.headers })
    expect(listed.text).not.toContain(created.secret)
    expect(listed.json[0]).toMatchObject({ id: created.id, events: ['datasource.synched'], secretPrefix: created.secret.slice(0, 12), enabled: true })
    const row = await (await getPrisma()).webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } })
    expect(row.secretCiphertext).not.toContain(created.secret.slice(6))
    const other = await createTenant()
    expect((await call(item.GET, `/api/webhooks/${created.id}`, { headers: other.headers, params: { id: created.id } })).status).toBe(404)
    const bad = await call(collection.POST, '/api/webhooks', { method: 'POST', headers: tenant.headers, body: { url: 'ftp://x', events: ['nope'] } })
    expect(bad.status).toBe(400)
  })
})

describe('deliveries', () => {
  test('the signature verifies with the recipe of the README', async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_HOSTS = '1'
    const tenant = await createTenant()
    const r = await receiver()
    const { secret } = await subscribe(tenant, r.url, ['datasource.synched'])
    await emitEvent(tenant.ctx.organizationId, 'datasource.synched', { datasourceId: 'd1', datastoreId: 's1', name: 'Docs', type: 'web_page', status: 'synched', errorMessage: null })
    await drainWebhooks()
    expect(r.received).toHaveLength(1)
    const { headers, body } = r.received[0]

    // README "Schedules and webhooks": verifying a delivery
    const [t, v1] = String(headers['x-webhook-signature']).split(',').map(part => part.split('=')[1])
    const expected = crypto.createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')
    const valid = crypto.timingSafeEqual(Buffer.from(v1, 'hex'), Buffer.from(expected, 'hex')) && Math.abs(Date.now() / 1000 - Number(t)) < 300

    expect(valid).toBe(true)
    expect(headers['x-webhook-event']).toBe('datasource.synched')
    expect(JSON.parse(body)).toMatchObject({ type: 'datasource.synched', organizationId: tenant.ctx.organizationId, data: { datasourceId: 'd1' } })
  })

  test('a receiver that answers 500 three times then 200 gets exactly one successful delivery recorded after the retries', async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_HOSTS = '1'
    process.env.WEBHOOK_RETRY_BASE_SECONDS = '0'
    const tenant = await createTenant()
    const r = await receiver([500, 500, 500])
    const hook = await subscribe(tenant, r.url, ['conversation.created'])
    await emitEvent(tenant.ctx.organizationId, 'conversation.created', { conversationId: 'c1', agentId: 'a1', visitorId: null, channel: 'api' })
    await drainWebhooks()
    expect(r.received).toHaveLength(4)
    expect(new Set(r.received.map(x => x.headers['x-webhook-id'])).size).toBe(1)
    const recorded = await deliveriesOf(tenant, hook.id)
    expect(recorded).toHaveLength(1)
    expect(recorded[0]).toMatchObject({ status: 'delivered', attempts: 4, responseStatus: 200, lastError: null })
  })

  test('a failed delivery waits for its backoff, and "send again" queues it anew', async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_HOSTS = '1'
    const tenant = await createTenant()
    const r = await receiver([503])
    const hook = await subscribe(tenant, r.url, ['conversation.created'])
    await emitEvent(tenant.ctx.organizationId, 'conversation.created', { conversationId: 'c1', agentId: 'a1', visitorId: null, channel: 'api' })
    await drainWebhooks()
    let [d] = await deliveriesOf(tenant, hook.id)
    expect(d).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 503, lastError: 'The receiver answered 503' })
    expect(await drainWebhooks()).toBe(0)
    const again = await call(resend.POST, `/api/webhooks/deliveries/${d.id}/resend`, { method: 'POST', headers: tenant.headers, params: { id: d.id } })
    expect(again.status).toBe(202)
    await drainWebhooks()
    ;[d] = await deliveriesOf(tenant, hook.id)
    expect(d).toMatchObject({ status: 'delivered', responseStatus: 200 })
    expect(r.received).toHaveLength(2)
    const other = await createTenant()
    expect((await call(resend.POST, `/api/webhooks/deliveries/${d.id}/resend`, { method: 'POST', headers: other.headers, params: { id: d.id } })).status).toBe(404)
  })

  test('a receiver on a private address is refused unless allowed', async () => {
    const tenant = await createTenant()
    const r = await receiver()
    const hook = await subscribe(tenant, r.url, ['message.created'])
    await emitEvent(tenant.ctx.organizationId, 'message.created', { messageId: 'm1', conversationId: 'c1', agentId: 'a1', role: 'user', text: 'hi' })
    await drainWebhooks()
    let [d] = await deliveriesOf(tenant, hook.id)
    expect(r.received).toHaveLength(0)
    expect(d.status).toBe('failed')
    expect(d.lastError).toMatch(/^Not allowed: .* refused .*WEBHOOK_ALLOW_PRIVATE_HOSTS=1/)

    process.env.WEBHOOK_ALLOW_PRIVATE_HOSTS = '1'
    await call(resend.POST, `/api/webhooks/deliveries/${d.id}/resend`, { method: 'POST', headers: tenant.headers, params: { id: d.id } })
    await drainWebhooks()
    ;[d] = await deliveriesOf(tenant, hook.id)
    expect(d.status).toBe('delivered')
    expect(r.received).toHaveLength(1)
  })
})

describe('events arrive for each kind', () => {
  const sites: TestSite[] = []
  afterEach(async () => {
    for (const s of sites.splice(0)) await s.close()
  })

  test('datasource.synched, datasource.failed, datasource.usage_limit_reached and site.refreshed with its counts', async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_HOSTS = '1'
    process.env.CRAWLER_ALLOW_PRIVATE_HOSTS = '1'
    const s = await serveSite({ '/a': page('A', '<p>Kettles boil.</p>'), '/b': page('B', '<p>Teapots steep.</p>') })
    sites.push(s)
    s.routes['/sitemap.xml'] = sitemap([`${s.url}/a`, `${s.url}/b`, `${s.url}/missing`])
    const store = await createStore()
    const r = await receiver()
    await subscribe(store, r.url, ['datasource.synched', 'datasource.failed', 'datasource.usage_limit_reached', 'site.refreshed'])
    const good = await addWeb(store, 'web_page', { source_url: `${s.url}/a` })
    const missing = await addWeb(store, 'web_page', { source_url: `${s.url}/missing` })
    const site = await addWeb(store, 'web_site', { sitemap: `${s.url}/sitemap.xml` })
    await drainQueue()
    const prisma = await getPrisma()
    await prisma.usageLimit.create({ data: { organizationId: store.organizationId, maxStoredTokens: 1 } })
    const limited = await addWeb(store, 'web_page', { source_url: `${s.url}/b` })
    await drainQueue()
    await drainWebhooks()

    const events = r.received.map(x => JSON.parse(x.body))
    const of = (type: string, id: string) => events.filter(e => e.type === type && e.data.datasourceId === id)
    expect(of('datasource.synched', good.id)).toMatchObject([{ data: { status: 'synched', outcome: 'added', name: `${s.url}/a` } }])
    expect(of('datasource.failed', missing.id)).toMatchObject([{ data: { status: 'error', errorMessage: `${s.url}/missing answered 404: the page does not exist` } }])
    expect(of('datasource.usage_limit_reached', limited.id)).toHaveLength(1)
    expect(of('datasource.synched', site.id)).toHaveLength(1)
    expect(of('site.refreshed', site.id)).toMatchObject([{ data: { pages: { added: 2, changed: 0, unchanged: 0, removed: 0, failed: 1 } } }])
    // pages of a site are told as the site's refresh, not one by one
    expect(events.filter(e => e.type === 'datasource.synched')).toHaveLength(2)
  })

  test('conversation.created and message.created when an agent answers', async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_HOSTS = '1'
    const tenant = await createTenant()
    const { datastoreId } = await seedDatastore(tenant, [{ text: 'The kettle warranty is two years.' }])
    const agent = await createAgentVia(tenant, { datastoreIds: [datastoreId] })
    const r = await receiver()
    await subscribe(tenant, r.url, ['conversation.created', 'message.created'])
    const res = await queryAgentVia(agent.id, { query: 'How long is the warranty?' }, tenant.headers)
    expect(res.status).toBe(200)
    // a follow-up in the same conversation tells its two messages, not a second conversation
    const followUp = await queryAgentVia(agent.id, { query: 'And for the toaster?', conversationId: res.json.conversationId }, tenant.headers)
    expect(followUp.status).toBe(200)
    await drainWebhooks()
    const events = r.received.map(x => JSON.parse(x.body))
    expect(events.filter(e => e.type === 'conversation.created')).toMatchObject([
      { organizationId: tenant.ctx.organizationId, data: { conversationId: res.json.conversationId, agentId: agent.id, visitorId: res.json.visitorId, channel: 'api' } },
    ])
    // each message.created names the stored message, its role and its text
    const { sql } = await getDatabase()
    const stored = await sql.query<{ id: string; role: string; text: string }>(
      `SELECT id, role::text AS role, text FROM "Message" WHERE "conversationId" = $1 ORDER BY "createdAt", id`, [res.json.conversationId])
    const told = events.filter(e => e.type === 'message.created').map(e => ({ id: e.data.messageId, role: e.data.role, text: e.data.text }))
    expect(told.sort((a, b) => a.id.localeCompare(b.id))).toEqual([...stored].sort((a, b) => a.id.localeCompare(b.id)))
    expect(stored.map(m => m.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
    expect(stored[1].id).toBe(res.json.messageId)
    const [{ n }] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "WebhookDelivery" WHERE status = 'delivered' AND "organizationId" = $1`, [tenant.ctx.organizationId])
    expect(n).toBe(5)
  })
})

test('a site whose pages are all unchanged by their lastmod is told once, as refreshed with every page unchanged', async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE_HOSTS = '1'
  process.env.CRAWLER_ALLOW_PRIVATE_HOSTS = '1'
  const s = await serveSite({ '/a': page('A', '<p>Kettles boil.</p>') })
  closers.push(() => s.close())
  s.routes['/sitemap.xml'] = { type: 'application/xml', body: `<urlset><url><loc>${s.url}/a</loc><lastmod>2020-01-01</lastmod></url></urlset>` }
  const store = await createStore()
  const site = await addWeb(store, 'web_site', { sitemap: `${s.url}/sitemap.xml` })
  await drainQueue()
  const r = await receiver()
  await subscribe(store, r.url, ['datasource.synched', 'site.refreshed'])
  const { sql } = await getDatabase()
  await sql.query(`UPDATE "Datasource" SET status = 'pending', "nextRunAt" = (now() AT TIME ZONE 'UTC') WHERE id = $1`, [site.id])
  await drainQueue()
  await drainWebhooks()
  const events = r.received.map(x => JSON.parse(x.body))
  expect(events.map(e => e.type).sort()).toEqual(['datasource.synched', 'site.refreshed'])
  expect(events.find(e => e.type === 'site.refreshed').data.pages).toEqual({ added: 0, changed: 0, unchanged: 1, removed: 0, failed: 0 })
})
