// The Notion connector (issue 26): a page tree and a database synched through a local server answering as Notion's
// API does; refreshes that cost nothing for unchanged pages; removed pages pruned; rate limits honoured.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import * as datasourceRoute from '@/app/api/datasources/[id]/route'
import * as datasourcesListRoute from '@/app/api/datastores/[id]/datasources/route'
import { getDatabase, getPrisma } from '@/lib/db/client'
import { queueDueRefreshes } from '@/lib/ingest/background'
import { drainQueue } from '@/lib/ingest/worker'
import { useFakeModel } from '../helpers/fake-model'
import { startFakeNotion, type FakeNotion } from '../helpers/fake-notion'
import { call } from '../helpers/http'
import { addNotion, connect } from '../helpers/notion-api'
import { buildWorkspace, text } from '../helpers/notion-workspace'
import { chunksOf, createStore, fullTextHits, reload } from '../fixtures/ingest'

useFakeModel()
let notion: FakeNotion
beforeAll(async () => {
  notion = await startFakeNotion()
})
afterAll(() => notion.close())
beforeEach(() => {
  process.env.NOTION_API_URL = notion.url
  process.env.CRAWLER_ALLOW_PRIVATE_HOSTS = '1'
  process.env.NOTION_REQUESTS_PER_SECOND = '100'
  notion.requests.length = 0
})
afterEach(() => {
  for (const name of ['NOTION_API_URL', 'CRAWLER_ALLOW_PRIVATE_HOSTS', 'NOTION_REQUESTS_PER_SECOND', 'REFRESH_SPREAD_SECONDS']) delete process.env[name]
})

async function synchedWorkspace(rootType: 'page' | 'database' = 'page') {
  const ws = buildWorkspace(notion)
  const store = await createStore()
  const connection = await connect(store.headers, notion.token)
  const created = await addNotion(store.headers, store.store.id, { connectionId: connection.id, rootId: rootType === 'page' ? ws.root : ws.faq, rootType })
  expect(created.status, created.text).toBe(201)
  await drainQueue()
  return { ws, store, connection, group: created.json as { id: string } }
}

async function pagesOf(groupId: string) {
  const rows = await (await getPrisma()).datasource.findMany({ where: { groupId } })
  return new Map(rows.map(r => [(r.config as { pageId: string }).pageId, r]))
}

async function refreshDue(id: string) {
  const { sql } = await getDatabase()
  await sql.query(`UPDATE "Datasource" SET "refreshHours" = 24, "nextRefreshAt" = (now() AT TIME ZONE 'UTC') - interval '1 minute' WHERE id = $1`, [id])
  process.env.REFRESH_SPREAD_SECONDS = '0'
  expect(await queueDueRefreshes()).toEqual([id])
  notion.requests.length = 0
  await drainQueue()
}

const blockRequestsFor = (id: string) => notion.requests.filter(r => r.path.replace(/-/g, '') === `/v1/blocks/${id}/children`)

describe('a Notion page and its children', () => {
  test('a page tree with a database is synched: each page a child, its blocks as text, a row’s properties first', async () => {
    const { ws, store, group } = await synchedWorkspace()
    // named by its root page's title, as it was created without a name
    expect(await reload(group.id)).toMatchObject({ status: 'synched', name: 'Help center' })
    const pages = await pagesOf(group.id)
    expect(new Set(pages.keys())).toEqual(new Set([ws.root, ws.warranty, ws.descaling, ...ws.rows]))
    expect([...pages.values()].every(p => p.type === 'notion_page' && p.status === 'synched')).toBe(true)
    expect(pages.get(ws.warranty)!.name).toBe('Warranty')

    const warranty = (await chunksOf(pages.get(ws.warranty)!.id)).map(c => c.text).join('\n')
    for (const line of ['Cover', '- Limescale damage is not covered', '1. Keep the receipt', '[ ] Register the kettle online', '> Best warranty in the trade', '```bash\ncurl https://example.com/claims\n```', 'Model | Years', 'K200 | 2']) {
      expect(warranty).toContain(line)
    }
    expect((await chunksOf(pages.get(ws.rows[1])!.id))[0].text).toMatch(/^Category: Returns/)
    expect(await fullTextHits(store.store.id, 'vinegar')).toEqual([pages.get(ws.descaling)!.id])
  })

  test('a database root syncs every row, following the query’s pages', async () => {
    const { ws, group } = await synchedWorkspace('database')
    expect(new Set((await pagesOf(group.id)).keys())).toEqual(new Set(ws.rows))
    expect(notion.requests.filter(r => r.path.endsWith('/query')).length).toBeGreaterThanOrEqual(2)
  })

  test('on refresh an edited page is re-indexed, and unchanged pages cost no block request', async () => {
    const { ws, store, group } = await synchedWorkspace()
    notion.editPage(ws.descaling, [text('paragraph', 'Descale the kettle with citric acid every month.')])
    await refreshDue(group.id)

    const pages = await pagesOf(group.id)
    expect(pages.get(ws.descaling)!.syncOutcome).toBe('changed')
    expect(await fullTextHits(store.store.id, 'citric')).toEqual([pages.get(ws.descaling)!.id])
    expect(await fullTextHits(store.store.id, 'vinegar')).toEqual([])
    for (const id of [ws.root, ws.warranty, ...ws.rows]) {
      expect(pages.get(id)!.syncOutcome, id).toBe('unchanged')
      expect(blockRequestsFor(id), id).toEqual([])
    }
    expect(blockRequestsFor(ws.descaling).length).toBeGreaterThan(0)
    expect((await reload(group.id)).status).toBe('synched')
  })

  test('a page removed from Notion is pruned at the next refresh, with its chunks', async () => {
    const { ws, store, group } = await synchedWorkspace()
    notion.removePage(ws.warranty)
    await refreshDue(group.id)
    const pages = await pagesOf(group.id)
    expect(pages.has(ws.warranty)).toBe(false)
    expect(pages.size).toBe(5)
    expect(await fullTextHits(store.store.id, 'limescale')).toEqual([])
    expect((await reload(group.id)).refreshStats).toEqual({ removed: 1 })
  })

  test('a 429 is waited out as its Retry-After says, and the sync completes', async () => {
    notion.rateLimitNext(2)
    const { group } = await synchedWorkspace('database')
    expect((await reload(group.id)).status).toBe('synched')
    expect((await pagesOf(group.id)).size).toBe(3)
  })

  test('requests are spaced to NOTION_REQUESTS_PER_SECOND per connection', async () => {
    process.env.NOTION_REQUESTS_PER_SECOND = '5'
    const started = Date.now()
    await synchedWorkspace('database')
    // the token check when the connection is saved is not the connection's own rate
    const made = notion.requests.filter(r => r.path !== '/v1/users/me').length
    // n requests at 5 a second take at least (n − 1) / 5 seconds
    expect(Date.now() - started).toBeGreaterThanOrEqual(((made - 1) / 5) * 1000 - 50)
  })

  test('a root not shared with the integration ends in error saying to share it', async () => {
    const store = await createStore()
    const connection = await connect(store.headers, notion.token)
    const created = await addNotion(store.headers, store.store.id, { connectionId: connection.id, rootId: 'f'.repeat(32), rootType: 'page' })
    await drainQueue()
    expect(await reload(created.json.id)).toMatchObject({ status: 'error', errorMessage: expect.stringContaining('share the page with the integration') })
  })
})

describe('the token', () => {
  test('never appears in an API response, a datasource’s error or the logs', async () => {
    process.env.LOG_LEVEL = 'debug'
    const logged: string[] = []
    const capture = (...args: unknown[]) => void logged.push(args.map(String).join(' '))
    const spies = [vi.spyOn(console, 'log').mockImplementation(capture), vi.spyOn(console, 'error').mockImplementation(capture), vi.spyOn(console, 'warn').mockImplementation(capture)]
    try {
      const { store, group, connection } = await synchedWorkspace()
      const answers = [
        JSON.stringify(connection),
        (await call(datasourceRoute.GET, `/api/datasources/${group.id}`, { headers: store.headers, params: { id: group.id } })).text,
        (await call(datasourcesListRoute.GET, `/api/datastores/${store.store.id}/datasources`, { headers: store.headers, params: { id: store.store.id } })).text,
      ]
      // a token Notion refuses: the datasources fail, saying so without it
      await (await getPrisma()).connection.update({ where: { id: connection.id }, data: { secretCiphertext: (await import('@/lib/crypto/secrets')).encryptSecret('ntn_revoked_token_0123456789') } })
      await refreshDue(group.id)
      const failed = await reload(group.id)
      expect(failed).toMatchObject({ status: 'error', errorMessage: expect.stringContaining('refused the connection’s token') })
      for (const text of [...answers, ...logged, failed.errorMessage ?? '']) {
        expect(text).not.toContain(notion.token)
        expect(text).not.toContain('ntn_revoked_token_0123456789')
      }
      expect(answers[1]).toContain(connection.id)
    } finally {
      spies.forEach(s => s.mockRestore())
      delete process.env.LOG_LEVEL
    }
  })
})
