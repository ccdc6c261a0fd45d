import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { embedMany } from 'ai'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { embedText } from '@/e2e/support/fake-openai-server.mjs'
import { embeddingsProvider } from '@/lib/embeddings/provider'
import { openAICompatibleEmbeddingModel } from '@/lib/embeddings/openai-compatible-model'
import { useFakeEmbeddings } from '../helpers/fake-embeddings'

// lib/embeddings: the configured provider asks an OpenAI-compatible server for base64 vectors (as OpenAI's own clients
// do), reads numbers from a server that ignores that, and turns every failure into a clear, retried-when-worth-it error

const DIMENSIONS = 48
const fake = useFakeEmbeddings(DIMENSIONS)
const texts = ['The mitochondria produce energy', 'Ribosomes build proteins', 'a third text, about cells and energy']

const control = (behaviour: object) => fake.server().setBehaviour(behaviour)

/** `round`: what the vector's encoding keeps of the fake's doubles (base64 carries float32). */
function expectVectorsOf(vectors: number[][], inputs: string[], round: (x: number) => number) {
  expect(vectors).toHaveLength(inputs.length)
  vectors.forEach((vector, i) => {
    expect(vector).toHaveLength(DIMENSIONS)
    embedText(inputs[i], DIMENSIONS).forEach((x: number, d: number) => expect(vector[d]).toBe(round(x)))
  })
}

describe('the configured embeddings provider', () => {
  beforeEach(() => control({}))

  it('asks for base64 vectors of the configured size and reads them in the texts’ order', async () => {
    const before = fake.server().requests.length
    const vectors = await embeddingsProvider()!.embed(texts)
    expectVectorsOf(vectors, texts, Math.fround)
    const [request] = fake.server().requests.slice(before)
    expect(request.body).toMatchObject({ count: 3, dimensions: DIMENSIONS, encoding_format: 'base64' })
  })

  it('reads the numbers of a server that ignores encoding_format, as the same vectors', async () => {
    await control({ embeddingsFormat: 'float' })
    expectVectorsOf(await embeddingsProvider()!.embed(texts), texts, x => x)
  })

  it('reports the server’s own error message, as the service’s upstream error', async () => {
    await control({ embeddingsMode: 'error' })
    await expect(embeddingsProvider()!.embed(texts, { maxRetries: 0 })).rejects.toThrow(/The embeddings provider failed: .*embeddings failed \(fake\)/)
  })
})

describe('an OpenAI-compatible embeddings server answering badly', () => {
  let server: http.Server
  let baseURL: string
  let answer: (body: { input: string[]; encoding_format?: string }, res: http.ServerResponse) => void
  const seen: { authorization?: string; path?: string }[] = []

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let raw = ''
      req.on('data', c => (raw += c))
      req.on('end', () => {
        seen.push({ authorization: req.headers.authorization, path: req.url })
        answer(JSON.parse(raw), res)
      })
    })
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`
  })
  afterAll(() => new Promise(resolve => server.close(resolve)))
  beforeEach(() => void (seen.length = 0))

  const model = () => openAICompatibleEmbeddingModel({ baseURL, apiKey: 'sk-bad-server', model: 'm', dimensions: 2, fetch })
  const embed = (values: string[], maxRetries = 0) => embedMany({ model: model(), values, maxRetries })
  const reply = (status: number, body: unknown) => (answer = (_, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body)))
  const base64 = (...values: number[]) => Buffer.from(Float32Array.from(values).buffer).toString('base64')

  it('sends the key as a bearer token to …/embeddings, and orders the vectors by their index', async () => {
    reply(200, { data: [{ index: 1, embedding: base64(0.5, -1) }, { index: 0, embedding: [0.25, 2] }] })
    const { embeddings } = await embed(['first', 'second'])
    expect(embeddings).toEqual([[0.25, 2], [0.5, -1]])
    expect(seen).toEqual([{ authorization: 'Bearer sk-bad-server', path: '/v1/embeddings' }])
  })

  it.each([
    ['invalid JSON', 'not json', /invalid JSON/],
    ['no data list', { object: 'list' }, /without a "data" list/],
    ['fewer vectors than texts', { data: [{ index: 0, embedding: [1, 2] }] }, /1 vectors for 2 texts/],
    ['base64 that is not float32', { data: [{ index: 0, embedding: 'AAAAAAA=' }, { index: 1, embedding: [1, 2] }] }, /invalid item at position 0/],
    ['a number that is not finite', { data: [{ index: 0, embedding: base64(Infinity, 1) }, { index: 1, embedding: [1, 2] }] }, /invalid item at position 0/],
    ['an index out of range', { data: [{ index: 0, embedding: [1, 2] }, { index: 5, embedding: [1, 2] }] }, /invalid item at position 1/],
  ])('refuses %s with a clear message, without retrying', async (_, body, message) => {
    reply(200, body)
    await expect(embed(['a', 'b'], 2)).rejects.toThrow(message)
    expect(seen).toHaveLength(1)
  })

  it('gives a 4xx’s message from its OpenAI error body, and a plain body’s text', async () => {
    reply(400, { error: { message: 'This model does not support dimensions', type: 'invalid_request_error' } })
    await expect(embed(['a'])).rejects.toThrow('This model does not support dimensions')
    reply(401, 'Unauthorized')
    await expect(embed(['a'])).rejects.toThrow('Unauthorized')
  })

  it('asks a server that refuses base64 for numbers, at once and from then on', async () => {
    const formats: string[] = []
    answer = (body, res) => {
      const format = body.encoding_format ?? 'float'
      formats.push(format)
      if (format !== 'float') return res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'encoding_format: unknown value' } }))
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: body.input.map((_, index) => ({ index, embedding: [index, 1] })) }))
    }
    const strict = openAICompatibleEmbeddingModel({ baseURL: `${baseURL}strict`, apiKey: 'k', model: 'm', dimensions: 2, fetch })
    expect((await embedMany({ model: strict, values: ['a', 'b'], maxRetries: 0 })).embeddings).toEqual([[0, 1], [1, 1]])
    expect((await embedMany({ model: strict, values: ['c'], maxRetries: 0 })).embeddings).toEqual([[0, 1]])
    expect(formats).toEqual(['base64', 'float', 'float'])
  })

  it('retries a rate limit, then reads the answer', async () => {
    let calls = 0
    answer = (_, res) => {
      calls++
      if (calls === 1) return res.writeHead(429, { 'content-type': 'application/json', 'retry-after-ms': '10' }).end(JSON.stringify({ error: { message: 'slow down' } }))
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ index: 0, embedding: base64(1, 0) }] }))
    }
    const { embeddings } = await embed(['a'], 2)
    expect(embeddings).toEqual([[1, 0]])
    expect(calls).toBe(2)
  })

  it('names a server it cannot reach', async () => {
    const closed = http.createServer()
    await new Promise<void>(resolve => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise(resolve => closed.close(resolve))
    const unreachable = openAICompatibleEmbeddingModel({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'k', model: 'm', dimensions: 2, fetch })
    await expect(embedMany({ model: unreachable, values: ['a'], maxRetries: 0 })).rejects.toThrow(/Cannot connect to the embeddings API/)
  })
})
