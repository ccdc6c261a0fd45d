// The production server that `npm start` runs: Next.js's request handler behind node:http, so that the client's
// address is known. Next keeps a client-sent X-Forwarded-For, which would let anyone choose the address that public
// agents' rate limits count; here X-Forwarded-For is set from the socket, unless TRUST_PROXY=1 says a reverse proxy in
// front sets it (then the last entry, the one that proxy appended, is the client).
import http from 'node:http'
import path from 'node:path'
import next from 'next'

const root = path.resolve(import.meta.dirname, '..')
const port = Number(process.env.PORT || 3000)
const hostname = process.env.HOST || '0.0.0.0'
const trustProxy = ['1', 'true', 'on', 'yes'].includes(String(process.env.TRUST_PROXY ?? '').toLowerCase())

const app = next({ dev: false, dir: root, port, hostname: hostname === '0.0.0.0' ? 'localhost' : hostname })
const handle = app.getRequestHandler()
await app.prepare()

const server = http.createServer((req, res) => {
  const socketAddress = req.socket.remoteAddress ?? 'unknown'
  if (!trustProxy || !req.headers['x-forwarded-for']) req.headers['x-forwarded-for'] = socketAddress
  handle(req, res)
})
server.listen(port, hostname, () => console.log(`▲ Ready on http://${hostname === '0.0.0.0' ? 'localhost' : hostname}:${port}`))

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    server.close()
    process.exit(0)
  })
}
