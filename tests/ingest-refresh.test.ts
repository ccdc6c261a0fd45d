// Scheduled refreshes of web sources: conditional fetches, unchanged pages free, pruning, crawl rules, schedules.
import type http from 'node:http'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { getDatabase, getPrisma } from '@/lib/db/client'
import { updateDatasource } from '@/lib/datastores/update-datasource'
import { getDatasource } from '@/lib/datastores/datasources'
import { updateDatastore } from '@/lib/datastores/datastores'
import { queueDueRefreshes } from '@/lib/ingest/background'
import { REFRESHABLE_TYPES } from '@/lib/ingest/kinds'
import { enqueueDueRefreshes } from '@/lib/ingest/lifecycle'
import { drainQueue, startWorker } from '@/lib/ingest/worker'
import { useFakeModel } from './helpers/fake-model'
import { addWeb, chunksOf, createStore, fullTextHits, reload } from './fixtures/ingest'
import { page, serveSite, type Route, type TestSite } from './fixtures/web-server'

const model = useFakeModel()
const sites: TestSite[] = []
async function site(routes: Record<string, Route>) {
  const s = await serveSite(routes)
  sites.push(s)
  return s
}
afterEach(async () => {
  for (const s of sites.splice(0)) await s.close()
  for (const name of ['CRAWLER_ALLOW_PRIVATE_HOSTS', 'REFRESH_SPREAD_SECONDS', 'REFRESH_CHECK_SECONDS']) delete process.env[name]
})
beforeEach(() => {
  process.env.CRAWLER_ALLOW_PRIVATE_HOSTS = '1'
})

const embeddedTexts = () => model.fake.requests.filter(r => r.path === '/v1/embeddings').reduce((n, r) => n + (r.body as { count: number }).count, 0)

function sitemapOf(s: TestSite, paths: string[], lastmod: Record<string, string> = {}) {
  const urls = paths.map(p => `<url><loc>${s.url}${p}</loc>${lastmod[p] ? `<lastmod>${lastmod[p]}</lastmod>` : ''}</url>`).join('')
  return { type: 'application/xml', body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>` }
}

/** A page answering 304 to If-None-Match with its current ETag; records what it answered. */
function withEtag(html: () => string, answered: number[]): Route {
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    const body = html()
    const etag = `"${Buffer.from(body).toString('base64').slice(-16)}"`
    if (req.headers['if-none-match'] === etag) {
      answered.push(304)
      return res.writeHead(304, { etag }).end()
    }
    answered.push(200)
    res.writeHead(200, { 'content-type': 'text/html', etag }).end(body)
  }
}

/** Makes the datasource's scheduled refresh due now, as if its interval had passed, and queues it as the worker would. */
async function refreshDue(id: string) {
  const { sql } = await getDatabase()
  await sql.query(`UPDATE "Datasource" SET "refreshHours" = 24, "nextRefreshAt" = (now() AT TIME ZONE 'UTC') - interval '1 minute' WHERE id = $1`, [id])
  process.env.REFRESH_SPREAD_SECONDS = '0'
  expect(await queueDueRefreshes()).toEqual([id])
}

async function pagesOf(siteId: string) {
  const prisma = await getPrisma()
  const rows = await prisma.datasource.findMany({ where: { groupId: siteId } })
  return new Map(rows.map(r => [(r.config as { source_url: string }).source_url.replace(/^http:\/\/127\.0\.0\.1:\d+/, ''), r]))
}

describe('a refresh of a web site', () => {
  test('unchanged pages cost no embeddings, 304s are used when the server supports them, changed pages are re-indexed', async () => {
    let news = 'The kettle ships in blue.'
    const etagAnswers: number[] = []
    const s = await site({
      '/sitemap.xml': () => undefined as never,
      '/a': { body: page('Warranty', '<p>The kettle warranty lasts two years.</p>') },
      '/b': withEtag(() => page('Descaling', '<p>Descale the kettle with white vinegar.</p>'), etagAnswers),
      '/c': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(page('News', `<p>${news}</p>`)),
    })
    s.routes['/sitemap.xml'] = sitemapOf(s, ['/a', '/b', '/c'])
    const store = await createStore()
    const ws = await addWeb(store, 'web_site', { sitemap: `${s.url}/sitemap.xml` })
    await drainQueue()
    expect((await reload(ws.id)).status).toBe('synched')
    expect(embeddedTexts()).toBe(3)

    model.fake.reset()
    news = 'The kettle now ships in crimson.'
    await refreshDue(ws.id)
    await drainQueue()

    expect(embeddedTexts()).toBe(1)
    expect(etagAnswers).toEqual([200, 304])
    const pages = await pagesOf(ws.id)
    expect([...pages].map(([p, r]) => [p, r.status, r.syncOutcome]).sort()).toEqual([
      ['/a', 'synched', 'unchanged'],
      ['/b', 'synched', 'unchanged'],
      ['/c', 'synched', 'changed'],
    ])
    expect((await chunksOf(pages.get('/c')!.id)).map(c => c.text).join()).toContain('crimson')
    expect(await fullTextHits(store.store.id, 'crimson')).toEqual([pages.get('/c')!.id])
    expect(await fullTextHits(store.store.id, 'blue')).toEqual([])
    expect((await reload(ws.id)).status).toBe('synched')
  })

  test("a sitemap's lastmod skips pages not modified since their last sync", async () => {
    const s = await site({
      '/old': page('Old', '<p>An old page about kettles.</p>'),
      '/new': page('New', '<p>A new page about teapots.</p>'),
    })
    s.routes['/sitemap.xml'] = sitemapOf(s, ['/old', '/new'], { '/old': '2020-01-01', '/new': '2999-01-01' })
    const store = await createStore()
    const ws = await addWeb(store, 'web_site', { sitemap: `${s.url}/sitemap.xml` })
    await drainQueue()
    s.hits.length = 0
    await refreshDue(ws.id)
    await drainQueue()
    expect(s.hits.filter(h => h !== '/robots.txt').sort()).toEqual(['/new', '/sitemap.xml'])
    expect((await pagesOf(ws.id)).get('/old')?.syncOutcome).toBe('unchanged')
  })

  test('pages that left the sitemap are removed at once; a page answering 404 keeps its content once, and is removed the second time', async () => {
    const s = await site({
      '/stay': page('Stay', '<p>Kettles boil water.</p>'),
      '/leave': page('Leave', '<p>Teapots steep leaves.</p>'),
      '/vanish': page('Vanish', '<p>Samovars serve many cups.</p>'),
    })
    s.routes['/sitemap.xml'] = sitemapOf(s, ['/stay', '/leave', '/vanish'])
    const store = await createStore()
    const ws = await addWeb(store, 'web_site', { sitemap: `${s.url}/sitemap.xml` })
    await drainQueue()
    const before = await pagesOf(ws.id)

    s.routes['/sitemap.xml'] = sitemapOf(s, ['/stay', '/vanish'])
    delete s.routes['/vanish']
    await refreshDue(ws.id)
    await drainQueue()
    let pages = await pagesOf(ws.id)
    expect([...pages.keys()].sort()).toEqual(['/stay', '/vanish'])
    expect(await fullTextHits(store.store.id, 'teapots')).toEqual([])
    expect(pages.get('/vanish')).toMatchObject({ status: 'error', errorMessage: `${s.url}/vanish answered 404: the page does not exist`, goneCount: 1 })
    expect(await fullTextHits(store.store.id, 'samovars')).toEqual([before.get('/vanish')!.id])
    expect((await reload(ws.id)).status).toBe('synched')

    await refreshDue(ws.id)
    await drainQueue()
    pages = await pagesOf(ws.id)
    expect([...pages.keys()]).toEqual(['/stay'])
    expect(await fullTextHits(store.store.id, 'samovars')).toEqual([])
    expect(await reload(ws.id)).toMatchObject({ status: 'synched', errorMessage: null })
  })
})

describe('crawl rules of a web site', () => {
  const link = (...paths: string[]) => paths.map(p => `<a href="${p}">${p}</a>`).join(' ')
  const routes = {
    '/': page('Home', `<p>Welcome.</p>${link('/docs/start', '/docs/private/keys', '/blog/news')}`),
    '/docs/start': page('Start', `<p>Start here.</p>${link('/docs/next')}`),
    '/docs/next': page('Next', `<p>Then here.</p>${link('/docs/deeper')}`),
    '/docs/deeper': page('Deeper', '<p>Deep down.</p>'),
    '/docs/private/keys': page('Keys', '<p>Secret keys.</p>'),
    '/blog/news': page('News', '<p>News.</p>'),
  }

  test('include and exclude patterns (glob and regex) and a depth limit hold in a crawl', async () => {
    const s = await site(routes)
    const store = await createStore()
    const ws = await addWeb(store, 'web_site', { source_url: `${s.url}/` })
    const prisma = await getPrisma()
    await prisma.datasource.update({ where: { id: ws.id }, data: { config: { source_url: `${s.url}/`, include: ['/', '/docs/**'], exclude: ['/\\/private\\//'], maxDepth: 2 } } })
    await drainQueue()
    expect([...(await pagesOf(ws.id)).keys()].sort()).toEqual(['/', '/docs/next', '/docs/start'])
    expect(s.hits).not.toContain('/docs/private/keys')
    expect(s.hits).not.toContain('/blog/news')
  })

  test('a page limit per site holds, and rules can be changed through PATCH (applied at the next sync)', async () => {
    const s = await site(routes)
    s.routes['/sitemap.xml'] = sitemapOf(s, Object.keys(routes))
    const store = await createStore()
    const ws = await addWeb(store, 'web_site', { sitemap: `${s.url}/sitemap.xml` })
    const updated = await updateDatasource(store.ctx, ws.id, { config: { maxPages: 2, exclude: ['/blog/*'] } })
    expect(updated.config).toEqual({ sitemap: `${s.url}/sitemap.xml`, exclude: ['/blog/*'], maxPages: 2 })
    await drainQueue()
    expect([...(await pagesOf(ws.id)).keys()].sort()).toEqual(['/', '/docs/start'])
    await expect(updateDatasource(store.ctx, ws.id, { config: { maxDepth: -1 } })).rejects.toMatchObject({ details: [{ path: 'config.maxDepth' }] })
  })
})

describe('schedules', () => {
  test("a datasource's next refresh follows its interval, else its datastore's; off means none", async () => {
    const s = await site({ '/p': page('P', '<p>Kettles.</p>') })
    const store = await createStore()
    await updateDatastore(store.ctx, store.store.id, { refreshInterval: 'daily' })
    const ds = await addWeb(store, 'web_page', { source_url: `${s.url}/p` })
    await drainQueue()
    const hoursAhead = async () => {
      const r = await getDatasource(store.ctx, ds.id)
      return r.nextRefreshAt === null ? null : Math.round((Date.parse(r.nextRefreshAt) - Date.now()) / 3_600_000)
    }
    expect((await getDatasource(store.ctx, ds.id)).refreshInterval).toBeNull()
    expect(await hoursAhead()).toBe(24)
    expect((await updateDatasource(store.ctx, ds.id, { refreshInterval: 'hourly' })).refreshInterval).toBe('hourly')
    expect(await hoursAhead()).toBe(1)
    await updateDatasource(store.ctx, ds.id, { refreshInterval: 5 })
    expect(await hoursAhead()).toBe(5)
    await updateDatasource(store.ctx, ds.id, { refreshInterval: 'off' })
    expect(await hoursAhead()).toBeNull()
    await updateDatasource(store.ctx, ds.id, { refreshInterval: null })
    expect(await hoursAhead()).toBe(24)
    await updateDatastore(store.ctx, store.store.id, { refreshInterval: 'weekly' })
    expect(await hoursAhead()).toBe(168)
  })

  test('a thousand due pages are queued once each, spread over time, never twice at a time', async () => {
    const store = await createStore()
    const { sql } = await getDatabase()
    await sql.query(
      `INSERT INTO "Datasource" (id, "organizationId", "datastoreId", type, name, status, config, "refreshHours", "lastSynch", "nextRefreshAt", "updatedAt")
       SELECT 'due' || g, $1, $2, 'web_page', 'p' || g, 'synched', '{}', 1, now(), (now() AT TIME ZONE 'UTC') - interval '1 hour', now() FROM generate_series(1, 1000) g`,
      [store.organizationId, store.store.id],
    )
    process.env.REFRESH_SPREAD_SECONDS = '600'
    const [a, b] = await Promise.all([enqueueDueRefreshes(REFRESHABLE_TYPES, { spreadSeconds: 600 }), enqueueDueRefreshes(REFRESHABLE_TYPES, { spreadSeconds: 600 })])
    expect(new Set([...a, ...b]).size).toBe(1000)
    expect(a.length + b.length).toBe(1000)
    expect(await queueDueRefreshes()).toEqual([])
    const [spread] = await sql.query<{ min: number; max: number; now_due: number }>(
      `SELECT EXTRACT(EPOCH FROM min("nextRunAt") - (now() AT TIME ZONE 'UTC')) AS min, EXTRACT(EPOCH FROM max("nextRunAt") - (now() AT TIME ZONE 'UTC')) AS max,
              count(*) FILTER (WHERE "nextRunAt" <= (now() AT TIME ZONE 'UTC') + interval '5 seconds') AS now_due
         FROM "Datasource" WHERE "datastoreId" = $1 AND status = 'pending'`,
      [store.store.id],
    )
    expect(Number(spread.max)).toBeGreaterThan(300)
    expect(Number(spread.max)).toBeLessThanOrEqual(600)
    expect(Number(spread.now_due)).toBeLessThan(50)
    await sql.query(`DELETE FROM "Datasource" WHERE "datastoreId" = $1`, [store.store.id])
  })

  test('a worker restarted in the middle of a due refresh loses nothing and does nothing twice', async () => {
    const paths = ['/p1', '/p2', '/p3', '/p4', '/p5', '/p6']
    let version = 'first'
    let gate: Promise<void> | null = null
    let open = () => {}
    const held: string[] = []
    const routes: Record<string, Route> = {}
    for (const p of paths) {
      routes[p] = async (req, res) => {
        if (gate) {
          held.push(p)
          await gate
        }
        if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/html' }).end(page(p, `<p>Page ${p} in its ${version} version about kettles.</p>`))
      }
    }
    const s = await site(routes)
    s.routes['/sitemap.xml'] = sitemapOf(s, paths)
    const store = await createStore()
    const ws = await addWeb(store, 'web_site', { sitemap: `${s.url}/sitemap.xml` })
    await drainQueue()
    const { sql } = await getDatabase()
    await sql.query(`UPDATE "Datasource" SET "refreshHours" = 1, "nextRefreshAt" = (now() AT TIME ZONE 'UTC') - interval '1 minute' WHERE id = $1`, [ws.id])
    model.fake.reset()
    s.hits.length = 0
    version = 'second'
    gate = new Promise(resolve => (open = resolve))
    process.env.REFRESH_SPREAD_SECONDS = '0'
    process.env.REFRESH_CHECK_SECONDS = '3600'

    const first = startWorker({ concurrency: 2, pollMs: 20 })
    await until(() => held.length >= 2)
    await first.stop(0)
    open()
    gate = null
    const second = startWorker({ concurrency: 2, pollMs: 20 })
    try {
      await until(async () => (await reload(ws.id)).status === 'synched')
    } finally {
      await second.stop()
    }
    const pages = await pagesOf(ws.id)
    expect(pages.size).toBe(6)
    for (const [path, row] of pages) {
      const chunks = await chunksOf(row.id)
      expect(chunks.map(c => c.text), path).toEqual([`${path}\n\nPage ${path} in its second version about kettles.`])
    }
    expect(embeddedTexts()).toBe(6)
    expect(s.hits.filter(h => h === '/sitemap.xml')).toHaveLength(1)
    expect((await reload(ws.id)).nextRefreshAt).not.toBeNull()
  })
})

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for a state')
    await new Promise(resolve => setTimeout(resolve, 20))
  }
}
