import http from 'node:http'
import net, { type AddressInfo } from 'node:net'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as agentQuery from '@/app/api/agents/[id]/query/route'
import * as conversationItem from '@/app/api/conversations/[id]/route'
import * as conversationsExport from '@/app/api/conversations/export/route'
import { apiContracts, ROUTE_MODULES } from '@/app/api/registry'
import { METHODS } from '@/lib/api/endpoint'
import { getPrisma } from '@/lib/db/client'
import { directDispatcher } from '@/lib/api/direct-dispatch'
import { requestBody } from '@/lib/http/node-body'
import { routeTable } from '@/lib/api/route-table'
import { createAgentVia, parseSse, useFakeModel } from '../helpers/agents'
import { responses } from '../helpers/raw-http'
import { createTenant } from '../helpers/tenants'

// `npm start` answers the API's own routes without Next's router (scripts/serve.mjs, lib/api/direct-dispatch.ts):
// the route a path reaches, the framing of the response, and what is left to Next (issue 28).

const model = useFakeModel()
const table = routeTable(ROUTE_MODULES)

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time')
    await new Promise(r => setTimeout(r, 20))
  }
}

const MB = 1024 * 1024

describe('the route that answers a path', () => {
  test("every declared endpoint's path reaches its own route file", () => {
    let checked = 0
    for (const module of ROUTE_MODULES) {
      for (const method of METHODS) {
        const path = module[method].contract?.path
        if (!path) continue
        expect(table(method, path.replace(/\{\w+\}/g, 'some_id-1'))?.handler, `${method} ${path}`).toBe(module[method])
        checked++
      }
    }
    expect(checked).toBe(apiContracts().length)
  })

  test('a fixed segment wins over a placeholder, as in Next', () => {
    expect(table('GET', '/api/conversations/export')?.handler).toBe(conversationsExport.GET)
    expect(table('GET', '/api/conversations/conv_1')).toEqual({ route: '/api/conversations/{id}', handler: conversationItem.GET, params: { id: 'conv_1' } })
  })

  test("placeholders are decoded; an undeclared method gets the route file's 405", () => {
    expect(table('POST', '/api/agents/a%20b/query')?.params).toEqual({ id: 'a b' })
    expect(table('PUT', '/api/agents/a/query')?.handler).toBe(agentQuery.PUT)
  })

  test('what Next resolves is not found here: a trailing slash, an empty segment, a bad escape, HEAD, OPTIONS, unknown paths', () => {
    for (const [method, path] of [
      ['GET', '/api/agents/'],
      ['GET', '/api//agents'],
      ['GET', '/api/agents/%E0%A4%A'],
      ['HEAD', '/api/agents'],
      ['OPTIONS', '/api/agents/a/query'],
      ['GET', '/api/no-such-thing/here'],
      ['GET', '/api/auth/session'],
    ]) {
      expect(table(method, path), `${method} ${path}`).toBeNull()
    }
  })
})

describe('the API over the dispatcher, through real HTTP', () => {
  let base = ''
  let server: http.Server
  beforeAll(async () => {
    const dispatch = directDispatcher(ROUTE_MODULES)
    server = http.createServer((req, res) => {
      if (dispatch(req, res, base)) return
      res.writeHead(418, { 'x-left-to': 'next' }).end()
    })
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise(resolve => server.close(resolve)))

  function raw(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
    return new Promise<{ res: http.IncomingMessage; body: Buffer }>((resolve, reject) => {
      // the path as given: a URL string would be normalized by the client
      const req = http.request({ host: '127.0.0.1', port: new URL(base).port, path, method: init.method ?? 'GET', headers: init.headers }, res => {
        const parts: Buffer[] = []
        res.on('data', d => parts.push(d)).on('end', () => resolve({ res, body: Buffer.concat(parts) })).on('error', reject)
      })
      req.on('error', reject).end(init.body)
    })
  }

  test('a streamed answer arrives as events, never compressed, with the CORS of a public route', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ reply: 'The kettle is guaranteed for two years.', delayMs: 1 })
    const { res, body } = await raw(`/api/agents/${agent.id}/query`, {
      method: 'POST',
      headers: { ...tenant.headers, 'content-type': 'application/json', 'accept-encoding': 'gzip', origin: 'https://shop.example' },
      body: JSON.stringify({ query: 'Warranty?', streaming: true }),
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/event-stream')
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(res.headers['access-control-allow-origin']).toBe('*')
    expect(res.headers['x-request-id']).toBeTruthy()
    const sse = parseSse(body.toString())
    expect(sse.answer).toBe('The kettle is guaranteed for two years.')
    expect(sse.events.at(-1)).toEqual({ type: 'done' })
  })

  test('a client that goes away mid-answer stops the model call, and the partial answer is stored', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ reply: 'A long answer. '.repeat(40), delayMs: 50 })
    await new Promise<void>((resolve, reject) => {
      const req = http.request(`${base}/api/agents/${agent.id}/query`, { method: 'POST', headers: { ...tenant.headers, 'content-type': 'application/json' } }, res => {
        res.once('data', () => {
          req.destroy()
          resolve()
        })
      })
      req.on('error', error => (req.destroyed ? undefined : reject(error))).end(JSON.stringify({ query: 'Talk', streaming: true }))
    })
    await waitFor(() => model.fake.requests.some((r: any) => r.clientClosed))
    const prisma = await getPrisma()
    await waitFor(async () => (await prisma.message.count({ where: { conversation: { agentId: agent.id }, role: 'assistant' } })) === 1)
    const stored = await prisma.message.findFirstOrThrow({ where: { conversation: { agentId: agent.id }, role: 'assistant' } })
    expect(stored.error).toBe('Stopped before the answer was complete')
  })

  test('JSON of 1 KB or more is gzipped for a client that accepts it; a small one is sent whole with its length', async () => {
    const big = await raw('/api/openapi.json', { headers: { 'accept-encoding': 'gzip, deflate' } })
    expect(big.res.headers['content-encoding']).toBe('gzip')
    expect(big.res.headers.vary).toContain('Accept-Encoding')
    expect(JSON.parse(zlib.gunzipSync(big.body).toString()).openapi).toMatch(/^3\./)
    const plain = await raw('/api/openapi.json', { headers: { 'accept-encoding': 'gzip;q=0' } })
    expect(plain.res.headers['content-encoding']).toBeUndefined()
    expect(JSON.parse(plain.body.toString()).openapi).toMatch(/^3\./)
    const small = await raw('/api/health', { headers: { 'accept-encoding': 'gzip' } })
    expect(small.res.headers['content-encoding']).toBeUndefined()
    expect(Number(small.res.headers['content-length'])).toBe(small.body.length)
  })

  test('an upload is read as sent, and a download that states its length is gzipped without it', async () => {
    const tenant = await createTenant()
    const store = await fetch(`${base}/api/datastores`, { method: 'POST', headers: { ...tenant.headers, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Manuals' }) })
    const { id: datastoreId } = (await store.json()) as { id: string }
    const text = 'Descale the Aurora kettle every four weeks. '.repeat(80)
    const form = new FormData()
    form.append('type', 'file')
    form.append('datastoreId', datastoreId)
    form.append('file', new File([text], 'care.txt', { type: 'text/plain' }))
    const uploaded = await fetch(`${base}/api/datasources`, { method: 'POST', headers: tenant.headers, body: form })
    expect(uploaded.status).toBe(201)
    const { id } = (await uploaded.json()) as { id: string }
    const download = await raw(`/api/datasources/${id}/original`, { headers: { ...tenant.headers, 'accept-encoding': 'gzip' } })
    expect(download.res.statusCode).toBe(200)
    expect(download.res.headers['content-encoding']).toBe('gzip')
    expect(download.res.headers['content-length']).toBeUndefined()
    expect(zlib.gunzipSync(download.body).toString()).toBe(text)
  })

  test('a request body is read by the route as sent; errors keep their JSON shape', async () => {
    const tenant = await createTenant()
    const created = await raw('/api/agents', { method: 'POST', headers: { ...tenant.headers, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Direct' }) })
    expect(created.res.statusCode).toBe(201)
    expect(JSON.parse(created.body.toString()).name).toBe('Direct')
    const bad = await raw('/api/agents', { method: 'POST', headers: { ...tenant.headers, 'content-type': 'application/json' }, body: '{"name":' })
    expect(bad.res.statusCode).toBe(400)
    expect(JSON.parse(bad.body.toString()).error.code).toBe('invalid_request')
  })

  test('a body refused past the size limit gets its 413 while the client is still sending, and the connection stays usable', async () => {
    const tenant = await createTenant()
    const socket = net.connect(Number(new URL(base).port), '127.0.0.1')
    const received = responses(socket)
    const head = Object.entries({ ...tenant.headers, 'content-type': 'application/json', 'transfer-encoding': 'chunked' })
    socket.write(`POST /api/agents HTTP/1.1\r\nhost: localhost\r\n${head.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`)
    const chunk = Buffer.alloc(MB, 'x')
    for (let i = 0; i < 21; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)
    const refused = await received.next()
    expect(refused.status).toBe(413)
    expect(JSON.parse(refused.body).error.code).toBe('payload_too_large')
    // the rest of the body after the answer: Node's Readable.toWeb had closed the socket, and these writes were reset
    for (let i = 0; i < 4; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)
    socket.write('0\r\n\r\nGET /api/health HTTP/1.1\r\nhost: localhost\r\n\r\n')
    const health = await received.next()
    expect(health.status).toBe(200)
    expect(received.errors).toEqual([])
    socket.destroy()
  })

  test('a client that keeps sending a refused body is cut off after the lingering time', async () => {
    const lingering = http.createServer(async (req, res) => {
      const reader = requestBody(req, 300).getReader()
      await reader.read()
      await reader.cancel()
      res.writeHead(413, { 'content-length': '0' }).end()
    })
    await new Promise<void>(resolve => lingering.listen(0, '127.0.0.1', resolve))
    const socket = net.connect((lingering.address() as AddressInfo).port, '127.0.0.1')
    const received = responses(socket)
    socket.write('POST /upload HTTP/1.1\r\nhost: localhost\r\ntransfer-encoding: chunked\r\n\r\n')
    const sending = setInterval(() => socket.writable && socket.write('1000\r\n' + 'y'.repeat(0x1000) + '\r\n'), 10)
    expect((await received.next()).status).toBe(413)
    await new Promise(resolve => socket.once('close', resolve))
    clearInterval(sending)
    await new Promise(resolve => lingering.close(resolve))
  })

  test("aliases, preflights, trailing slashes and dot segments are left to Next's router", async () => {
    for (const [method, path, headers] of [
      ['POST', '/api/agents/query/agent_1', { 'content-type': 'application/json' }],
      ['OPTIONS', '/api/agents/agent_1/query', { origin: 'https://shop.example', 'access-control-request-method': 'POST' }],
      ['GET', '/api/agents/', {}],
      ['GET', '/api/agents/x/../../health', {}],
      ['GET', '/api/agents/%2e%2e/x', {}],
      ['GET', '/dashboard', {}],
    ] as const) {
      const { res } = await raw(path, { method, headers })
      expect(res.headers['x-left-to'], `${method} ${path}`).toBe('next')
    }
  })
})
