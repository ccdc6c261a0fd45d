import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { z } from 'zod'

// What an agent's tools call in the tests (issue 25), on 127.0.0.1: a small order API that records each request
// with its headers, and a real MCP server made with the official SDK.

export interface SeenRequest {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
  body: string
}

async function listen(server: http.Server) {
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, close: () => new Promise<void>(resolve => server.close(() => resolve())) }
}

/** GET /orders/{id} answers the order's status; /broken answers 500; everything is recorded in `seen`. */
export async function startOrderApi() {
  const seen: SeenRequest[] = []
  const server = http.createServer(async (req, res) => {
    let body = ''
    for await (const chunk of req) body += chunk
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
    const url = new URL(req.url ?? '/', 'http://x')
    if (url.pathname === '/broken') return res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"database down"}')
    if (url.pathname === '/slow') return // never answers
    if (url.pathname === '/big') return res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(Number(url.searchParams.get('bytes') ?? 10_000)))
    if (url.pathname === '/tickets') return res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ ticket: 'T-1', received: JSON.parse(body || '{}') }))
    const order = /^\/orders\/([^/]+)$/.exec(url.pathname)?.[1]
    if (order) return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ order: decodeURIComponent(order), status: 'shipped on Tuesday' }))
    res.writeHead(404).end()
  })
  server.keepAliveTimeout = 1
  const sockets = new Set<import('node:net').Socket>()
  server.on('connection', socket => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  const listening = await listen(server)
  return { ...listening, seen, close: () => { for (const s of sockets) s.destroy(); return listening.close() } }
}

/** An MCP server with one tool, check_stock {sku}; `calls` lists the skus it was asked about. */
export async function startStockMcpServer() {
  const calls: string[] = []
  const seenHeaders: http.IncomingHttpHeaders[] = []
  /** The JSON-RPC methods received, in order ("initialize", "tools/list", "tools/call", …). */
  const methods: string[] = []
  const server = http.createServer(async (req, res) => {
    seenHeaders.push(req.headers)
    const mcp = new McpServer({ name: 'stock', version: '1.0.0' })
    mcp.registerTool('check_stock', { description: 'How many units of a product are in stock', inputSchema: { sku: z.string() } }, async ({ sku }) => {
      calls.push(sku)
      return { content: [{ type: 'text', text: `${sku}: 12 units in stock` }] }
    })
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    res.on('close', () => void transport.close())
    await mcp.connect(transport)
    let body = ''
    for await (const chunk of req) body += chunk
    const message = body ? JSON.parse(body) : undefined
    for (const m of [message ?? []].flat()) if (typeof m?.method === 'string') methods.push(m.method)
    await transport.handleRequest(req, res, message)
  })
  return { ...(await listen(server)), calls, seenHeaders, methods, mcpUrl: '' }
}
