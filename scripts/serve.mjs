// The production server that `npm start` runs: node:http in front of the API's own routes (answered directly) and
// Next.js's request handler (everything else), so that the client's address is known. Next keeps a client-sent X-Forwarded-For, which would let anyone choose the address that public
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
// the API's own routes are answered without Next's router (lib/api/direct-dispatch.ts, installed by instrumentation.ts);
// pages, aliases, preflights and anything it does not know go to Next, as does any request before it is installed
// (Next runs the instrumentation once it has started, not within prepare())
globalThis.__directApiWanted = true
await app.prepare()
const base = `http://${hostname === '0.0.0.0' ? 'localhost' : hostname}:${port}`

const server = http.createServer((req, res) => {
  const socketAddress = req.socket.remoteAddress ?? 'unknown'
  if (!trustProxy || !req.headers['x-forwarded-for']) req.headers['x-forwarded-for'] = socketAddress
  if (globalThis.__directApi?.(req, res, base)) return
  handle(req, res)
})
server.listen(port, hostname, () => console.log(`▲ Ready on http://${hostname === '0.0.0.0' ? 'localhost' : hostname}:${port}`))

// SIGTERM (a deploy, `docker stop`, systemd) or SIGINT (Ctrl-C): no new connection; the requests in progress (answers
// streaming) end, then the service's own work stops and the database is closed (lib/server-start.ts), all within
// STOP_GRACE_MS; a second signal stops at once.
const STOP_GRACE_MS = 20_000
let stopping = false

async function stop(signal) {
  if (stopping) process.exit(1)
  stopping = true
  console.log(`${signal}: finishing the requests in progress (up to ${STOP_GRACE_MS / 1000} s), then stopping`)
  const deadline = Date.now() + STOP_GRACE_MS
  const closed = new Promise(resolve => server.close(resolve))
  // a kept-alive connection between two requests would hold close() until the grace ends
  const idle = setInterval(() => server.closeIdleConnections(), 100)
  await Promise.race([closed, new Promise(resolve => setTimeout(resolve, STOP_GRACE_MS))])
  clearInterval(idle)
  server.closeAllConnections()
  try {
    await globalThis.__stopServer?.(Math.max(1_000, deadline - Date.now()))
  } catch (error) {
    console.error(`stopping: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(1)
  }
  process.exit(0)
}

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void stop(signal))
