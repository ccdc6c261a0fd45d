// A local server answering as Notion's API does (version 2022-06-28): users/me, pages, block children and database
// queries over a small workspace the test edits, with pagination by next_cursor, 401 for another token, 404 for what
// is not there, 429 with Retry-After on demand. Every request is recorded.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { blockObject, botUser, dashed, errorObject, listObject, newId, pageObject } from './notion-shapes'

export interface FakeBlock {
  type: string
  body: Record<string, unknown>
  children?: FakeBlock[]
  id?: string
}

export interface FakePage {
  id?: string
  title: string
  parent: { page?: string; database?: string }
  blocks: FakeBlock[]
  properties?: Record<string, unknown>
  lastEdited?: string
}

export interface FakeNotion {
  url: string
  token: string
  /** Requests received: method and path without the query. */
  requests: { method: string; path: string }[]
  /** The most items a list answers at once (Notion's page_size goes to 100; smaller here to page). */
  maxPageSize: number
  addPage(page: FakePage): string
  addDatabase(db: { id?: string; title: string; parentPage: string }): string
  editPage(id: string, blocks: FakeBlock[]): void
  removePage(id: string): void
  /** The next `count` requests answer 429 with Retry-After: 1. */
  rateLimitNext(count: number): void
  close(): Promise<void>
  /** Lets the test process end with the server open (a server shared by a whole file). */
  unref(): void
}

const bare = (id: string) => id.replace(/-/g, '').toLowerCase()
const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body))

export async function startFakeNotion(token = `ntn_${newId().replace(/-/g, '')}`): Promise<FakeNotion> {
  const pages = new Map<string, FakePage & { id: string; lastEdited: string }>()
  const databases = new Map<string, { id: string; title: string; parentPage: string }>()
  const blocks = new Map<string, { block: FakeBlock; parent: string }>()
  let minute = 0
  let limited = 0
  const tick = () => new Date(Date.UTC(2026, 2, 1, 10, minute++)).toISOString()
  const touch = (id: string | undefined) => id && pages.has(bare(id)) && (pages.get(bare(id))!.lastEdited = tick())
  const index = (list: FakeBlock[], parent: string): void => {
    for (const b of list) {
      b.id ??= newId()
      blocks.set(bare(b.id), { block: b, parent })
      index(b.children ?? [], b.id)
    }
  }

  const childrenOf = (id: string): unknown[] => {
    const page = pages.get(id)
    if (page) {
      const own = page.blocks.map(b => blockObject(b.id!, page.id, b.type, b.body, !!b.children?.length, page.lastEdited))
      const subPages = [...pages.values()].filter(p => p.parent.page && bare(p.parent.page) === id)
      const subDbs = [...databases.values()].filter(d => bare(d.parentPage) === id)
      return [
        ...own,
        ...subPages.map(p => blockObject(p.id, page.id, 'child_page', { title: p.title }, true, p.lastEdited)),
        ...subDbs.map(d => blockObject(d.id, page.id, 'child_database', { title: d.title }, false, page.lastEdited)),
      ]
    }
    const held = blocks.get(id)
    if (!held) return []
    return (held.block.children ?? []).map(b => blockObject(b.id!, held.parent, b.type, b.body, !!b.children?.length, '2026-03-01T09:00:00.000Z'))
  }
  const exists = (id: string) => pages.has(id) || blocks.has(id)

  const fake: FakeNotion = {
    url: '',
    token,
    requests: [],
    maxPageSize: 2,
    addPage(page) {
      const id = page.id ?? newId()
      pages.set(bare(id), { ...page, id: dashed(bare(id)), lastEdited: tick() })
      index(page.blocks, id)
      touch(page.parent.page)
      return bare(id)
    },
    addDatabase(db) {
      const id = db.id ?? newId()
      databases.set(bare(id), { ...db, id: dashed(bare(id)) })
      touch(db.parentPage)
      return bare(id)
    },
    editPage(id, newBlocks) {
      const page = pages.get(bare(id))!
      page.blocks = newBlocks
      index(newBlocks, page.id)
      page.lastEdited = tick()
    },
    removePage(id) {
      const page = pages.get(bare(id))
      pages.delete(bare(id))
      touch(page?.parent.page)
    },
    rateLimitNext(count) {
      limited = count
    },
    close: async () => {},
    unref: () => {},
  }

  function paged(res: http.ServerResponse, items: unknown[], cursor: string | null, size: number, type: 'block' | 'page_or_database') {
    const start = cursor ? items.findIndex(i => (i as { id: string }).id === cursor) : 0
    if (start < 0) return send(res, 400, errorObject(400, 'validation_error', 'start_cursor provided is invalid'))
    const count = Math.min(size || 100, 100, fake.maxPageSize)
    const next = items[start + count] as { id: string } | undefined
    send(res, 200, listObject(items.slice(start, start + count), next?.id ?? null, type))
  }

  const server = http.createServer((req, res) => {
    let raw = ''
    req.on('data', c => (raw += c))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://notion.local')
      fake.requests.push({ method: req.method ?? 'GET', path: url.pathname })
      if (limited > 0) {
        limited--
        return send(res, 429, errorObject(429, 'rate_limited', 'You have been rate limited. Please try again in a few minutes.'), { 'retry-after': '1' })
      }
      if (req.headers.authorization !== `Bearer ${token}`) return send(res, 401, errorObject(401, 'unauthorized', 'API token is invalid.'))
      if (req.headers['notion-version'] !== '2022-06-28') return send(res, 400, errorObject(400, 'missing_version', 'Notion-Version header failed validation.'))
      const notFound = (id: string) => send(res, 404, errorObject(404, 'object_not_found', `Could not find block with ID: ${dashed(id)}. Make sure the relevant pages and databases are shared with your integration.`))
      let m: RegExpExecArray | null
      if (url.pathname === '/v1/users/me' && req.method === 'GET') return send(res, 200, botUser('Support docs'))
      if ((m = /^\/v1\/pages\/([\w-]+)$/.exec(url.pathname)) && req.method === 'GET') {
        const page = pages.get(bare(m[1]))
        return page ? send(res, 200, pageObject(page)) : notFound(m[1])
      }
      if ((m = /^\/v1\/blocks\/([\w-]+)\/children$/.exec(url.pathname)) && req.method === 'GET') {
        const id = bare(m[1])
        if (!exists(id)) return notFound(id)
        return paged(res, childrenOf(id), url.searchParams.get('start_cursor'), Number(url.searchParams.get('page_size')), 'block')
      }
      if ((m = /^\/v1\/databases\/([\w-]+)\/query$/.exec(url.pathname)) && req.method === 'POST') {
        const id = bare(m[1])
        if (!databases.has(id)) return notFound(id)
        const body = JSON.parse(raw || '{}') as { page_size?: number; start_cursor?: string }
        const rows = [...pages.values()].filter(p => p.parent.database && bare(p.parent.database) === id).map(p => pageObject(p))
        return paged(res, rows, body.start_cursor ?? null, body.page_size ?? 100, 'page_or_database')
      }
      send(res, 400, errorObject(400, 'invalid_request_url', 'Invalid request URL.'))
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  fake.close = () => new Promise<void>(resolve => server.close(() => resolve()))
  fake.unref = () => void server.unref()
  return fake
}
