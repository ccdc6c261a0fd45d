// Pages that need JavaScript (issue 26): a help center built as a single-page app, rendered in headless Chromium,
// every request of the page passing the crawler's address check.
import { afterAll, afterEach, describe, expect, test } from 'vitest'
import { getPrisma } from '@/lib/db/client'
import { trustHostsForTests } from '@/lib/ingest/web/address-policy'
import { closeRenderer } from '@/lib/ingest/web/render'
import { drainQueue } from '@/lib/ingest/worker'
import { addWeb, chunksOf, createStore, reload } from './fixtures/ingest'
import { serveSite, type TestSite } from './fixtures/web-server'

const SHELL = `<!doctype html><html><head><title>Help center</title></head>
<body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div><script src="/app.js"></script></body></html>`

// The app: the article of the current path from the site's own API, navigation links, and an attempt to read an
// internal service at a private address (`secret`), whose answer it would show if it got one
const app = (secret: string) => `
const root = document.getElementById('root')
const path = location.pathname
fetch('/api/articles').then(r => r.json()).then(articles => {
  const article = articles[path] || articles['/help']
  root.innerHTML = '<nav><a href="/help">Help</a> <a href="/help/returns">Returns</a></nav>' +
    '<main><h1>' + article.title + '</h1><p>' + article.body + '</p><p id="internal">internal service not reached</p></main>'
  return fetch(${JSON.stringify(secret)}).then(r => r.text()).then(t => { document.getElementById('internal').textContent = t })
}).catch(() => {})`

const ARTICLES = {
  '/help': { title: 'Getting started', body: 'Pair the Zephyrine kettle with the app by holding the power button for five seconds.' },
  '/help/returns': { title: 'Returns', body: 'Unopened kettles can be returned within thirty days of delivery.' },
}

const sites: TestSite[] = []
async function helpCenter() {
  const s = await serveSite({})
  sites.push(s)
  const secret = `http://127.0.0.1:${s.port}/internal/payroll`
  Object.assign(s.routes, {
    '/help': SHELL,
    '/help/returns': SHELL,
    '/app.js': { type: 'application/javascript', body: app(secret) },
    '/api/articles': { type: 'application/json', body: JSON.stringify(ARTICLES) },
    // readable by any origin: only the address check can keep a page from it
    '/internal/payroll': { type: 'text/plain', headers: { 'access-control-allow-origin': '*' }, body: 'Payroll export: salaries of every employee' },
  })
  // the site is reached as localhost (allowed for the test); the same server as 127.0.0.1 stays private
  return { ...s, origin: `http://localhost:${s.port}` }
}

afterEach(async () => {
  for (const s of sites.splice(0)) await s.close()
  trustHostsForTests([])
  for (const name of ['CRAWLER_RENDER', 'CRAWLER_ALLOW_PRIVATE_HOSTS', 'CHROMIUM_PATH']) delete process.env[name]
})
afterAll(async () => {
  await closeRenderer()
})

describe('pages that need JavaScript', () => {
  test('a single-page-app help center is indexed with the text its scripts render', async () => {
    trustHostsForTests(['localhost'])
    const s = await helpCenter()
    const org = await createStore()
    const ds = await addWeb(org, 'web_page', { source_url: `${s.origin}/help` })
    await drainQueue()
    const row = await reload(ds.id)
    expect(row.status, row.errorMessage ?? '').toBe('synched')
    const [chunk] = await chunksOf(ds.id)
    expect(chunk.text).toContain('Getting started\n\nPair the Zephyrine kettle with the app by holding the power button for five seconds.')
    expect(s.hits).toEqual(expect.arrayContaining(['/help', '/app.js', '/api/articles']))
  })

  test("a request the page's script makes to a private address is refused, and what it would have read is not indexed", async () => {
    trustHostsForTests(['localhost'])
    const s = await helpCenter()
    const org = await createStore()
    const ds = await addWeb(org, 'web_page', { source_url: `${s.origin}/help` })
    await drainQueue()
    expect((await reload(ds.id)).status).toBe('synched')
    const [chunk] = await chunksOf(ds.id)
    expect(chunk.text).toContain('internal service not reached')
    expect(chunk.text).not.toContain('Payroll')
    expect(s.hits).not.toContain('/internal/payroll')
  })

  test('with private addresses allowed, the same page does reach that address: the check above is what refused it', async () => {
    process.env.CRAWLER_ALLOW_PRIVATE_HOSTS = '1'
    const s = await helpCenter()
    const org = await createStore()
    const ds = await addWeb(org, 'web_page', { source_url: `${s.origin}/help` })
    await drainQueue()
    expect((await chunksOf(ds.id))[0].text).toContain('Payroll export: salaries of every employee')
    expect(s.hits).toContain('/internal/payroll')
  })

  test('a site crawl follows the links the app renders', async () => {
    trustHostsForTests(['localhost'])
    const s = await helpCenter()
    const org = await createStore()
    const site = await addWeb(org, 'web_site', { source_url: `${s.origin}/help` })
    await drainQueue()
    const prisma = await getPrisma()
    const pages = (await prisma.datasource.findMany({ where: { groupId: site.id } })).map(p => ({ ...p, url: (p.config as { source_url: string }).source_url }))
    pages.sort((a, b) => a.url.localeCompare(b.url))
    expect(pages.map(p => [p.url, p.status, p.name])).toEqual([
      [`${s.origin}/help`, 'synched', 'Help center'],
      [`${s.origin}/help/returns`, 'synched', 'Help center'],
    ])
    expect((await chunksOf(pages[1].id))[0].text).toContain('Unopened kettles can be returned within thirty days of delivery.')
  })

  test('with CRAWLER_RENDER=never the shell is read as served: the page has no text', async () => {
    trustHostsForTests(['localhost'])
    process.env.CRAWLER_RENDER = 'never'
    const s = await helpCenter()
    const org = await createStore()
    const ds = await addWeb(org, 'web_page', { source_url: `${s.origin}/help` })
    await drainQueue()
    expect(await reload(ds.id)).toMatchObject({ status: 'error', errorMessage: `The page ${s.origin}/help has no text` })
    expect(s.hits).toEqual(['/help'])
  })
})
