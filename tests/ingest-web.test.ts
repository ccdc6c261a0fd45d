import { afterEach, describe, expect, test } from 'vitest'
import { getPrisma } from '@/lib/db/client'
import { enqueueDatasources } from '@/lib/ingest/lifecycle'
import { isPublicAddress, trustHostsForTests } from '@/lib/ingest/web/address-policy'
import { drainQueue } from '@/lib/ingest/worker'
import { addWeb, chunksOf, createStore, reload } from './fixtures/ingest'
import { page, serveSite, sitemap, sitemapIndex, type TestSite } from './fixtures/web-server'

const sites: TestSite[] = []
async function site(routes: Parameters<typeof serveSite>[0]) {
  const s = await serveSite(routes)
  sites.push(s)
  return s
}
afterEach(async () => {
  for (const s of sites.splice(0)) await s.close()
  trustHostsForTests([])
  for (const name of ['CRAWLER_ALLOW_PRIVATE_HOSTS', 'CRAWLER_MAX_PAGE_MB', 'LIMIT_WEBSITE_PAGES']) delete process.env[name]
})
function allowPrivate() {
  process.env.CRAWLER_ALLOW_PRIVATE_HOSTS = '1'
}

async function childrenOf(siteId: string) {
  const prisma = await getPrisma()
  const children = await prisma.datasource.findMany({ where: { groupId: siteId }, orderBy: { createdAt: 'asc' } })
  return children.map(c => ({ ...c, url: (c.config as { source_url: string }).source_url }))
}

describe('web_page', () => {
  test("keeps the page's title and main text, without navigation, footer or scripts", async () => {
    allowPrivate()
    const s = await site({ '/guide': page('Descaling guide', '<p>Use white vinegar.</p><p>Rinse twice <b>before</b> use.</p>') })
    const org = await createStore()
    const ds = await addWeb(org, 'web_page', { source_url: `${s.url}/guide#step-2` })
    await drainQueue()
    expect(await reload(ds.id)).toMatchObject({ status: 'synched', name: `${s.url}/guide#step-2` })
    const chunks = await chunksOf(ds.id)
    expect(chunks.map(c => [c.text, c.metadata])).toEqual([['Descaling guide\n\nUse white vinegar.\n\nRinse twice before use.', { title: 'Descaling guide' }]])
    expect(s.hits).toEqual(['/guide'])
  })

  test('a missing page, a page that is not HTML or text, and an oversized page end in error, not retried', async () => {
    allowPrivate()
    process.env.CRAWLER_MAX_PAGE_MB = '1'
    const big = 'x'.repeat(1024 * 1024 + 10)
    const s = await site({
      '/image': { type: 'image/png', body: 'PNG' },
      '/huge': { body: `<p>${big}</p>` },
      '/huge-chunked': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' })
        let sent = 0
        const push = () => {
          if (res.destroyed || sent > 4) return res.end()
          sent++
          res.write('y'.repeat(400 * 1024), () => setTimeout(push, 5))
        }
        push()
      },
    })
    const org = await createStore()
    const cases = {
      '/missing': `${s.url}/missing answered 404: the page does not exist`,
      '/image': `${s.url}/image is of type image/png; only text/html, application/xhtml+xml, text/plain can be read`,
      '/huge': `${s.url}/huge is larger than 1 MB (CRAWLER_MAX_PAGE_MB): not fetched`,
      '/huge-chunked': `${s.url}/huge-chunked is larger than 1 MB (CRAWLER_MAX_PAGE_MB): not fetched`,
    }
    const ids = await Promise.all(Object.keys(cases).map(async path => (await addWeb(org, 'web_page', { source_url: `${s.url}${path}` })).id))
    await drainQueue()
    for (const [i, message] of Object.values(cases).entries()) {
      expect(await reload(ids[i])).toMatchObject({ status: 'error', errorMessage: message, attempts: 1 })
    }
  })
})

describe('the fetcher refuses what it must', () => {
  test('http://127.0.0.1/... is refused when CRAWLER_ALLOW_PRIVATE_HOSTS is unset', async () => {
    const s = await site({ '/secret': page('Secret', '<p>internal only</p>') })
    const org = await createStore()
    const ds = await addWeb(org, 'web_page', { source_url: `${s.url}/secret` })
    await drainQueue()
    const refused = await reload(ds.id)
    expect(refused.status).toBe('error')
    expect(refused.errorMessage).toBe('Not allowed: 127.0.0.1 is a private, loopback or link-local address, refused (set CRAWLER_ALLOW_PRIVATE_HOSTS=1, or WEBHOOK_ALLOW_PRIVATE_HOSTS=1 for webhooks, to allow private networks)')
    expect(refused.attempts).toBe(1)
    expect(s.hits).toEqual([])
  })

  test('a private address reached through a redirect from an allowed host is refused too', async () => {
    trustHostsForTests(['localhost'])
    const s = await site({ '/page': page('Public', '<p>allowed content</p>'), '/redirect': { status: 302, headers: { location: '' } } })
    s.routes['/redirect'] = { status: 302, headers: { location: `http://127.0.0.1:${s.port}/page` } }
    const org = await createStore()
    // the allowed host itself is fetched...
    const direct = await addWeb(org, 'web_page', { source_url: `http://localhost:${s.port}/page` })
    // ...but its redirect to a private address is not followed
    const redirected = await addWeb(org, 'web_page', { source_url: `http://localhost:${s.port}/redirect` })
    await drainQueue()
    expect((await reload(direct.id)).status).toBe('synched')
    const refused = await reload(redirected.id)
    expect(refused.status).toBe('error')
    expect(refused.errorMessage).toMatch(/^Not allowed: 127\.0\.0\.1 is a private, loopback or link-local address, refused/)
    expect(s.hits).toEqual(['/page', '/redirect'])
  })

  test('file:// and gopher:// URLs are refused, also as a redirect target', async () => {
    allowPrivate()
    const s = await site({ '/to-file': { status: 301, headers: { location: 'file:///etc/passwd' } } })
    const org = await createStore()
    const file = await addWeb(org, 'web_page', { source_url: 'file:///etc/passwd' })
    const gopher = await addWeb(org, 'web_page', { source_url: 'gopher://127.0.0.1:70/1' })
    const viaRedirect = await addWeb(org, 'web_page', { source_url: `${s.url}/to-file` })
    await drainQueue()
    expect((await reload(file.id)).errorMessage).toBe('Only http and https URLs can be fetched, not file: (file:///etc/passwd)')
    expect((await reload(gopher.id)).errorMessage).toBe('Only http and https URLs can be fetched, not gopher: (gopher://127.0.0.1:70/1)')
    expect((await reload(viaRedirect.id)).errorMessage).toBe('Only http and https URLs can be fetched, not file: (file:///etc/passwd)')
  })

  test('a redirect loop and a chain of more than 5 redirects end in error', async () => {
    allowPrivate()
    const routes: Record<string, { status: number; headers: Record<string, string> }> = {
      '/a': { status: 302, headers: { location: '/b' } },
      '/b': { status: 301, headers: { location: '/a' } },
    }
    for (let i = 0; i < 7; i++) routes[`/hop${i}`] = { status: 307, headers: { location: `/hop${i + 1}` } }
    const s = await site(routes)
    const org = await createStore()
    const loop = await addWeb(org, 'web_page', { source_url: `${s.url}/a` })
    const chain = await addWeb(org, 'web_page', { source_url: `${s.url}/hop0` })
    await drainQueue()
    expect(await reload(loop.id)).toMatchObject({ status: 'error', errorMessage: `The page redirects in a loop (back to ${s.url}/a)` })
    expect(await reload(chain.id)).toMatchObject({ status: 'error', errorMessage: `The page redirects more than 5 times (last to /hop6)` })
  })

  test('only public unicast addresses pass the address check, IPv4-mapped IPv6 judged as IPv4', () => {
    const refused = ['10.1.2.3', '172.16.5.4', '192.168.1.1', '127.0.0.1', '127.8.8.8', '169.254.169.254', '0.0.0.0', '100.64.0.1', '224.0.0.1',
      '255.255.255.255', '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:7f00:1', '64:ff9b::7f00:1',
      '2002:7f00:1::1', 'ff02::1', 'not an ip']
    const allowed = ['8.8.8.8', '93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']
    for (const address of refused) expect(isPublicAddress(address), address).toBe(false)
    for (const address of allowed) expect(isPublicAddress(address), address).toBe(true)
  })
})

describe('web_site', () => {
  test('a sitemap index (nested, listing itself) makes every page a child with groupId; the site shows their aggregate', async () => {
    allowPrivate()
    const s = await site({})
    Object.assign(s.routes, {
      '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nDisallow: /private\n' },
      '/sitemap_index.xml': sitemapIndex([`${s.url}/sitemap-a.xml`, `${s.url}/nested-index.xml`, `${s.url}/sitemap_index.xml`]),
      '/nested-index.xml': sitemapIndex([`${s.url}/sitemap-b.xml`]),
      '/sitemap-a.xml': sitemap([`${s.url}/docs/one`, `${s.url}/docs/two`, `${s.url}/private/secret`, 'http://elsewhere.example/page']),
      '/sitemap-b.xml': sitemap([`${s.url}/docs/three`, `${s.url}/docs/gone`]),
      '/docs/one': page('Page one', '<p>Kettles boil water.</p>'),
      '/docs/two': page('Page two', '<p>Toasters brown bread.</p>'),
      '/docs/three': page('Page three', '<p>Blenders crush ice.</p>'),
    })
    const org = await createStore()
    const root = await addWeb(org, 'web_site', { sitemap: `${s.url}/sitemap_index.xml` })
    await drainQueue()

    const children = await childrenOf(root.id)
    expect(children.map(c => c.url).sort()).toEqual([`${s.url}/docs/gone`, `${s.url}/docs/one`, `${s.url}/docs/three`, `${s.url}/docs/two`])
    for (const child of children) {
      expect(child).toMatchObject({ type: 'web_page', groupId: root.id, datastoreId: org.store.id, organizationId: org.organizationId })
    }
    const byUrl = Object.fromEntries(children.map(c => [c.url.slice(s.url.length), c]))
    expect(byUrl['/docs/one']).toMatchObject({ status: 'synched', name: 'Page one', nbChunks: 1 })
    expect((await chunksOf(byUrl['/docs/three'].id)).map(c => [c.text, c.metadata])).toEqual([['Page three\n\nBlenders crush ice.', { title: 'Page three' }]])
    expect(byUrl['/docs/gone'].status).toBe('error')

    const aggregate = await reload(root.id)
    expect(aggregate).toMatchObject({ status: 'synched', errorMessage: '1 of 4 pages could not be synchronised', nbChunks: 0 })
    expect(aggregate.lastSynch).not.toBeNull()
    expect(await chunksOf(root.id)).toEqual([])
    // robots.txt obeyed, and each sitemap read once although the index lists itself
    expect(s.hits.filter(h => h.startsWith('/private'))).toEqual([])
    expect(s.hits.filter(h => h === '/sitemap_index.xml')).toHaveLength(1)
  })

  test('re-syncing a site updates its pages by URL, without duplicates, and removes pages no longer listed', async () => {
    allowPrivate()
    const s = await site({})
    Object.assign(s.routes, {
      '/sitemap.xml': sitemap([`${s.url}/a`, `${s.url}/b`]),
      '/a': page('A', '<p>First page.</p>'),
      '/b': page('B', '<p>Second page.</p>'),
      '/c': page('C', '<p>Third page.</p>'),
    })
    const org = await createStore()
    const root = await addWeb(org, 'web_site', { source_url: `${s.url}/` })
    await drainQueue()
    const first = await childrenOf(root.id)
    expect(first.map(c => c.url).sort()).toEqual([`${s.url}/a`, `${s.url}/b`])

    s.routes['/sitemap.xml'] = sitemap([`${s.url}/b`, `${s.url}/c`])
    await enqueueDatasources([root.id])
    await drainQueue()
    const second = await childrenOf(root.id)
    expect(second.map(c => c.url).sort()).toEqual([`${s.url}/b`, `${s.url}/c`])
    expect(second.find(c => c.url.endsWith('/b'))!.id).toBe(first.find(c => c.url.endsWith('/b'))!.id)
    expect(await chunksOf(first.find(c => c.url.endsWith('/a'))!.id)).toEqual([])
    expect(second.every(c => c.status === 'synched')).toBe(true)
    expect((await reload(root.id)).status).toBe('synched')
  })

  test("the sitemap named by robots.txt is used when the site's root is given", async () => {
    allowPrivate()
    const s = await site({})
    Object.assign(s.routes, {
      '/robots.txt': { type: 'text/plain', body: `User-agent: *\nAllow: /\nSitemap: ${s.url}/maps/pages.xml\n` },
      '/maps/pages.xml': sitemap([`${s.url}/only`]),
      '/only': page('Only', '<p>The only listed page.</p>'),
      '/': page('Home', '<a href="/unlisted">unlisted</a>'),
    })
    const org = await createStore()
    const root = await addWeb(org, 'web_site', { source_url: `${s.url}/` })
    await drainQueue()
    expect((await childrenOf(root.id)).map(c => c.url)).toEqual([`${s.url}/only`])
    expect(s.hits).not.toContain('/unlisted')
  })

  test('without a sitemap, a crawl finds linked pages, stays on the origin and obeys robots.txt', async () => {
    allowPrivate()
    const elsewhere = await site({ '/x': page('Elsewhere', '<p>other origin</p>') })
    const s = await site({
      '/robots.txt': { type: 'text/plain', body: 'User-agent: AgentDatastoreBot\nDisallow: /private\n' },
      '/': { delayMs: 30, body: page('Home', `<p>Welcome.</p><a href="/a">A</a> <a href="/b#section">B</a> <a href="http://localhost:${elsewhere.port}/x">off-site</a> <a href="mailto:x@example.com">mail</a> <a href="/manual.pdf">pdf</a> <a href="/private/p">private</a>`) },
      '/a': { delayMs: 30, body: page('A', '<p>Page A.</p><a href="/c">C</a><a href="/">home</a>') },
      '/b': { delayMs: 30, body: page('B', '<p>Page B.</p><a href="/b">self</a>') },
      '/c': { delayMs: 30, body: page('C', '<p>Page C, two links deep.</p>') },
      '/private/p': page('Private', '<p>no robots</p>'),
    })
    const org = await createStore()
    const root = await addWeb(org, 'web_site', { source_url: `${s.url}/` })
    await drainQueue({ concurrency: 2 })
    const children = await childrenOf(root.id)
    expect(children.map(c => c.url).sort()).toEqual([`${s.url}/`, `${s.url}/a`, `${s.url}/b`, `${s.url}/c`])
    expect(children.every(c => c.status === 'synched' && c.groupId === root.id)).toBe(true)
    expect((await reload(root.id)).status).toBe('synched')
    expect(elsewhere.hits).toEqual([])
    expect(s.hits.some(h => h.startsWith('/private') || h.endsWith('.pdf'))).toBe(false)
    expect(s.maxInFlight).toBeLessThanOrEqual(2)
  })

  test('requests to one host stay within CRAWLER_CONCURRENCY_PER_HOST, however many workers run', async () => {
    allowPrivate()
    const routes: Record<string, { delayMs: number; body: string }> = {
      '/': { delayMs: 40, body: page('Home', Array.from({ length: 8 }, (_, i) => `<a href="/p${i}">p${i}</a>`).join(' ')) },
    }
    for (let i = 0; i < 8; i++) routes[`/p${i}`] = { delayMs: 40, body: page(`P${i}`, `<p>Page ${i}.</p>`) }
    const s = await site(routes)
    const org = await createStore()
    const root = await addWeb(org, 'web_site', { source_url: `${s.url}/` })
    await drainQueue({ concurrency: 4 })
    expect(await childrenOf(root.id)).toHaveLength(9)
    expect(s.maxInFlight).toBe(2)
  })

  test('a crawl stops at LIMIT_WEBSITE_PAGES pages', async () => {
    allowPrivate()
    process.env.LIMIT_WEBSITE_PAGES = '3'
    const routes: Record<string, string> = {}
    for (let i = 0; i < 10; i++) routes[i === 0 ? '/' : `/p${i}`] = page(`P${i}`, `<p>Page ${i}.</p><a href="/p${i + 1}">next</a><a href="/p${i + 2}">skip</a>`)
    const s = await site(routes)
    const org = await createStore()
    const root = await addWeb(org, 'web_site', { source_url: `${s.url}/` })
    await drainQueue()
    expect(await childrenOf(root.id)).toHaveLength(3)
  })

  test('a site whose start page is refused ends in error with the reason, creating no pages', async () => {
    const s = await site({ '/': page('Home', '<a href="/a">a</a>') })
    const org = await createStore()
    const root = await addWeb(org, 'web_site', { source_url: `${s.url}/` })
    await drainQueue()
    const refused = await reload(root.id)
    expect(refused.status).toBe('error')
    expect(refused.errorMessage).toContain('a private, loopback or link-local address, refused')
    expect(await childrenOf(root.id)).toEqual([])
    expect(s.hits).toEqual([])
  })
})
