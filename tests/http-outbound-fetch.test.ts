import http from 'node:http'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { outboundFetch } from '@/lib/http/outbound-fetch'

// lib/http/outbound-fetch.ts: the model, embeddings and reranker calls' fetch over node:http answers as fetch does

let server: http.Server
let base: string
let releaseRest: () => void = () => {}
const seen: { method?: string; headers?: http.IncomingHttpHeaders; body?: string } = {}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = ''
    req.on('data', chunk => (body += chunk))
    req.on('end', () => {
      if (req.url === '/echo') {
        Object.assign(seen, { method: req.method, headers: req.headers, body })
        res.writeHead(201, { 'content-type': 'application/json', 'x-answer': 'yes' })
        return res.end(JSON.stringify({ got: body }))
      }
      if (req.url === '/pieces') {
        // the rest only once the client has read the first piece: a fetch that buffered the body would hang here
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        res.write('data: first\n\n')
        releaseRest = () => res.end('data: rest\n\n')
        return
      }
      if (req.url === '/gzip') {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' })
        return res.end(zlib.gzipSync('unzipped text'))
      }
      if (req.url === '/moved') {
        res.writeHead(307, { location: '/echo' })
        return res.end()
      }
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 5_000)
      if (req.url === '/empty') {
        res.writeHead(204)
        return res.end()
      }
      res.writeHead(404)
      res.end()
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise(resolve => server.close(resolve))
})

describe('outbound fetch', () => {
  it('sends the method, headers and body, and gives the status, headers and body back', async () => {
    const res = await outboundFetch(`${base}/echo`, { method: 'post', headers: { 'content-type': 'application/json', authorization: 'Bearer k' }, body: '{"é":1}' })
    expect(res.status).toBe(201)
    expect(res.headers.get('x-answer')).toBe('yes')
    expect(await res.json()).toEqual({ got: '{"é":1}' })
    expect(seen.method).toBe('POST')
    expect(seen.headers?.authorization).toBe('Bearer k')
    expect(seen.headers?.['content-length']).toBe(String(Buffer.byteLength('{"é":1}')))
  })

  it('gives the body as it comes, not once it has ended', async () => {
    const res = await outboundFetch(`${base}/pieces`, {})
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
    expect((await reader.read()).value).toBe('data: first\n\n')
    releaseRest()
    let rest = ''
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += r.value
    expect(rest).toBe('data: rest\n\n')
  })

  it('undoes a gzip content encoding, follows a redirect, and gives a 204 no body', async () => {
    expect(await (await outboundFetch(`${base}/gzip`, {})).text()).toBe('unzipped text')
    const moved = await outboundFetch(`${base}/moved`, { method: 'POST', body: 'kept' })
    expect(moved.status).toBe(201)
    expect(await moved.json()).toEqual({ got: 'kept' })
    const empty = await outboundFetch(`${base}/empty`, {})
    expect(empty.status).toBe(204)
    expect(empty.body).toBeNull()
  })

  it('fails as fetch does when nothing answers: a TypeError with the cause', async () => {
    const closed = http.createServer()
    await new Promise<void>(resolve => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise(resolve => closed.close(resolve))
    const error = await outboundFetch(`http://127.0.0.1:${port}/`, {}).catch(e => e)
    expect(error).toBeInstanceOf(TypeError)
    expect(error.message).toBe('fetch failed')
    expect(error.cause.code).toBe('ECONNREFUSED')
  })

  it('stops on its signal: before the answer with the reason, and an answer already started', async () => {
    const before = new AbortController()
    const pending = outboundFetch(`${base}/slow`, { signal: before.signal })
    before.abort()
    expect((await pending.catch(e => e)).name).toBe('AbortError')
    await expect(outboundFetch(`${base}/echo`, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' })

    const during = new AbortController()
    const res = await outboundFetch(`${base}/pieces`, { signal: during.signal })
    const reader = res.body!.getReader()
    await reader.read()
    during.abort()
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' })
  })
})
