import http from 'node:http'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'

// A web server on 127.0.0.1 that misbehaves on purpose, for the fetcher, crawler and sitemap reader: redirect loops
// and endless chains, redirects to private addresses and other schemes, sitemaps that list themselves, endless
// and gigantic pages (declared or not, compressed or not), a page that drips a byte a second. It counts the bytes
// it sent on each path and whether the client hung up, so a test can see that a download was really cut off.

export interface HostileServer {
  /** http://localhost:PORT (the name the tests trust) */
  origin: string
  /** http://127.0.0.1:PORT (an address the fetcher must refuse) */
  ipOrigin: string
  port: number
  sent: Map<string, number>
  /** Paths whose response the client closed before its end. */
  cutOff: Set<string>
  hits: Map<string, number>
  close(): Promise<void>
}

const PAGE = (title: string, text: string, links: string[] = []) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${text}</p>${links.map(l => `<a href="${l}">${l}</a>`).join(' ')}</main></body></html>`

const sitemapIndex = (urls: string[]) => `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map(u => `<sitemap><loc>${u}</loc></sitemap>`).join('')}</sitemapindex>`
const urlset = (urls: string[]) => `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map(u => `<url><loc>${u}</loc></url>`).join('')}</urlset>`

const GIGABYTE = 1024 ** 3
const ZEROS = Buffer.alloc(64 * 1024, 0x61)

/** A gzip member that inflates to `bytes` of "a", built from repeated non-final deflate blocks (~1 kB per MB). */
export function gzipBomb(bytes: number): Buffer {
  const unit = Buffer.alloc(16 * 1024 * 1024, 0x61)
  const block = zlib.deflateRawSync(unit, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH })
  const reps = Math.ceil(bytes / unit.length)
  let crc = 0
  for (let i = 0; i < reps; i++) crc = zlib.crc32(unit, crc)
  const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3])
  const trailer = Buffer.alloc(8)
  trailer.writeUInt32LE(crc >>> 0, 0)
  trailer.writeUInt32LE((reps * unit.length) % 2 ** 32, 4)
  return Buffer.concat([header, ...Array.from({ length: reps }, () => block), Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]), trailer])
}

export async function startHostileServer(): Promise<HostileServer> {
  const sent = new Map<string, number>()
  const cutOff = new Set<string>()
  const hits = new Map<string, number>()
  const sockets = new Set<import('node:net').Socket>()
  let port = 0
  const bomb = gzipBomb(GIGABYTE)

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    const path = url.pathname
    hits.set(path, (hits.get(path) ?? 0) + 1)
    const count = (n: number) => sent.set(path, (sent.get(path) ?? 0) + n)
    res.on('close', () => {
      if (!res.writableFinished) cutOff.add(path)
    })
    const html = (body: string, status = 200) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' })
      count(body.length)
      res.end(body)
    }
    const xml = (body: string) => {
      res.writeHead(200, { 'content-type': 'application/xml' })
      count(body.length)
      res.end(body)
    }
    const redirect = (location: string) => {
      res.writeHead(302, { location })
      res.end()
    }
    /** Writes "a" forever (or up to `limit`), as fast as the client reads, until it hangs up. */
    const endless = (limit = Infinity) => {
      const pump = () => {
        while (!res.destroyed && (sent.get(path) ?? 0) < limit) {
          count(ZEROS.length)
          if (!res.write(ZEROS)) return void res.once('drain', pump)
        }
        if (!res.destroyed) res.end()
      }
      pump()
    }
    const base = `http://localhost:${port}`

    if (path === '/robots.txt') return html('', 404)
    if (path === '/page') return html(PAGE('A normal page', 'The kettle warranty is two years. Descaling is free.'))
    if (path === '/loop/a') return redirect('/loop/b')
    if (path === '/loop/b') return redirect('/loop/a')
    if (path.startsWith('/chain/')) return redirect(`/chain/${Number(path.split('/')[2]) + 1}`)
    if (path === '/to-private') return redirect(`http://127.0.0.1:${port}/page`)
    if (path === '/to-metadata') return redirect('http://169.254.169.254/latest/meta-data/')
    if (path === '/to-file') return redirect('file:///etc/passwd')
    if (path === '/to-gopher') return redirect('gopher://localhost:70/_INFO')
    if (path === '/redirect-with-endless-body') {
      res.writeHead(302, { location: '/page', 'content-type': 'text/html' })
      return endless()
    }
    if (path === '/not-found-with-endless-body') {
      res.writeHead(404, { 'content-type': 'text/html' })
      return endless()
    }
    if (path === '/huge') {
      res.writeHead(200, { 'content-type': 'text/html' })
      return endless()
    }
    if (path === '/huge-declared') {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(GIGABYTE) })
      return endless(GIGABYTE)
    }
    if (path === '/gzip-bomb') {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip', 'content-length': String(bomb.length) })
      count(bomb.length)
      return res.end(bomb)
    }
    if (path === '/sitemap-bomb.xml.gz') {
      res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': String(bomb.length) })
      count(bomb.length)
      return res.end(bomb)
    }
    if (path === '/drip') {
      res.writeHead(200, { 'content-type': 'text/html' })
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer)
        count(1)
        res.write('a')
      }, 500)
      return
    }
    if (path === '/binary') {
      res.writeHead(200, { 'content-type': 'image/png' })
      return endless(10 * 1024 * 1024)
    }
    if (path === '/sitemap-self.xml') return xml(sitemapIndex([`${base}/sitemap-self.xml`]))
    if (path === '/sitemap-loop-a.xml') return xml(sitemapIndex([`${base}/sitemap-loop-b.xml`, `${base}/sitemap-loop-a.xml`]))
    if (path === '/sitemap-loop-b.xml') return xml(sitemapIndex([`${base}/sitemap-loop-a.xml`, `${base}/sitemap-pages.xml`]))
    if (path === '/sitemap-pages.xml') return xml(urlset([`${base}/page`]))
    if (path === '/sitemap-hostile-urls.xml') {
      return xml(urlset(['file:///etc/passwd', 'gopher://localhost:70/', `http://127.0.0.1:${port}/page`, 'http://169.254.169.254/', `${base}/loop/a`, `${base}/page`]))
    }
    if (path === '/sitemap-huge.xml') {
      res.writeHead(200, { 'content-type': 'application/xml' })
      return endless()
    }
    if (path === '/crawl-root') return html(PAGE('Root', 'Links everywhere.', ['file:///etc/passwd', 'gopher://x/', `http://127.0.0.1:${port}/page`, '/loop/a', '/huge', '/page', '/crawl-root']))
    html(PAGE('Not found', 'nothing'), 404)
  })
  server.on('connection', s => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
  return {
    origin: `http://localhost:${port}`,
    ipOrigin: `http://127.0.0.1:${port}`,
    port,
    sent,
    cutOff,
    hits,
    close: () =>
      new Promise(resolve => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}
