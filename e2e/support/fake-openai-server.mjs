// A small OpenAI-compatible server for tests: /v1/embeddings and /v1/chat/completions (JSON and SSE streaming),
// on 127.0.0.1 only. Tests start it in-process (startFakeOpenAI) or as a process: `node fake-openai-server.mjs PORT`.
// Embeddings are a hashed bag of words, so texts sharing words are near each other, deterministically.
// Behaviour is scriptable per test: POST /__control {reply, mode, delayMs, firstTokenDelayMs, embeddingsMode,
// embeddingsDelayMs, embeddingsFormat, answerFromContext, rewriteReply, rewriteMode, rewriteDelayMs, status, toolCalls, replyFromTools};
// GET /__requests. GET /v1/models lists `models` (behaviour) or DEFAULT_MODELS. `requireKey`: any /v1 request with
// another Bearer key is a 401; `down: true`: every /v1 request has its connection closed unanswered (a server that
// stopped answering). Modes: error (HTTP `status`, 500 by default), garbage, hang, drop, drop-mid-stream, hang-mid-stream.
// toolCalls [{name, arguments}]: a request that offers tools and carries no tool result yet is answered with those
// tool calls (streamed or not, as OpenAI sends them); the next one, with the results, is answered as usual, or with
// the results quoted when replyFromTools is set.
import http from 'node:http'
import { createHash } from 'node:crypto'

const DEFAULT_DIMENSIONS = 64
/** What GET /v1/models lists unless a test sets `models`. */
export const DEFAULT_MODELS = ['gpt-4o-mini', 'gpt-4o', 'text-embedding-3-small', 'llama3.1:8b']

export function embedText(text, dimensions = DEFAULT_DIMENSIONS) {
  const v = new Array(dimensions).fill(0)
  const words = String(text).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  for (const w of words) {
    const h = createHash('md5').update(w).digest()
    v[h.readUInt32LE(0) % dimensions] += h[4] & 1 ? 1 : -1
  }
  const norm = Math.hypot(...v) || 1
  return v.map(x => x / norm)
}

/**
 * A vector as OpenAI sends it: numbers, or with `encoding_format: "base64"` the float32 values' little-endian bytes in
 * base64. `forced` (behaviour.embeddingsFormat "float") answers numbers whatever was asked, as servers that ignore the
 * field do.
 */
function encodeEmbedding(vector, format, forced) {
  if ((forced ?? format) !== 'base64') return vector
  return Buffer.from(Float32Array.from(vector).buffer).toString('base64')
}

function defaultReply(body) {
  const last = [...(body.messages ?? [])].reverse().find(m => m.role === 'user')
  const content = typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '')
  const question = content.split('\n').filter(Boolean).pop() ?? ''
  return `Here is what I found.\nYou asked: ${question.slice(0, 120)}`
}

const textOf = content => (typeof content === 'string' ? content : JSON.stringify(content ?? ''))
const systemOf = body => (body.messages ?? []).filter(m => m.role === 'system').map(m => textOf(m.content)).join('\n')

// A question rewrite (lib/agents/standalone-question.ts): its instruction asks for a "standalone search query". Such
// requests are answered by their own behaviour (rewriteReply, rewriteMode error|hang, rewriteDelayMs), never by the
// answer's, are left out of chatRequests() and listed by rewriteRequests().
const isRewrite = body => /standalone search query/i.test(systemOf(body))

// The default rewrite: the follow-up with the conversation's previous user message, as a model would make it stand alone
function defaultRewrite(body) {
  const request = textOf([...(body.messages ?? [])].reverse().find(m => m.role === 'user')?.content)
  const followUp = (request.match(/Follow-up question: ([^\n]*)/)?.[1] ?? '').trim()
  const previous = [...request.matchAll(/^User: (.*)$/gm)].map(m => m[1].trim()).pop() ?? ''
  return `${followUp} ${previous}`.trim()
}

// answerFromContext: the fake answers from the fragments it was given (the first one's first sentence), and says it
// does not know when told that no passage is relevant (lib/agents/prompt.ts NO_SOURCES_NOTICE)
function answerFromContext(body) {
  const system = systemOf(body)
  if (/No passage of the documents is relevant/.test(system)) return "I don't know: the documents do not cover this."
  const first = system.match(/\[1\] Source: [^\n]*\n([^\n]+)/)?.[1] ?? ''
  return first ? `According to the documents: ${first.split(/(?<=[.!?])\s/)[0]}` : "I don't know."
}

const toolResults = body => (body.messages ?? []).filter(m => m.role === 'tool').map(m => textOf(m.content))
const wantsToolCalls = (body, b) => Array.isArray(b.toolCalls) && b.toolCalls.length > 0 && Array.isArray(body.tools) && body.tools.length > 0 && toolResults(body).length === 0
const replyFromTools = body => `From the tools: ${toolResults(body).join(' | ')}`
const toolCallsOf = b => b.toolCalls.map((c, i) => ({ id: `call_${i + 1}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments ?? {}) } }))

// The tool calls as a stream sends them: the name first, the arguments in pieces
function sendToolCalls(send, base, calls) {
  send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: null }, finish_reason: null }] })
  for (const [index, call] of calls.entries()) {
    send({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }, finish_reason: null }] })
    for (const piece of splitIntoPieces(call.function.arguments)) send({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: piece } }] }, finish_reason: null }] })
  }
  send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] })
}

// Pieces of a few characters, so a stream arrives in many events
function splitIntoPieces(text) {
  return text.match(/[\s\S]{1,12}/g) ?? ['']
}

const sleep = ms => new Promise(r => setTimeout(r, ms))

export async function startFakeOpenAI({ port = 0, host = '127.0.0.1' } = {}) {
  const requests = []
  let embeddingsInFlight = 0
  let behaviour = {}
  let notionTarget = null
  const sockets = new Set()

  const server = http.createServer(async (req, res) => {
    const receivedAt = performance.now()
    const chunks = []
    for await (const c of req) chunks.push(c)
    const raw = Buffer.concat(chunks).toString('utf8')
    let body = {}
    try { body = raw ? JSON.parse(raw) : {} } catch {}
    const url = new URL(req.url, 'http://x')
    const json = (status, value) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(value)) }

    if (url.pathname === '/health') return json(200, { ok: true })
    if (url.pathname === '/__control') { behaviour = req.method === 'POST' ? body : {}; return json(200, behaviour) }
    if (url.pathname === '/__reset') { behaviour = {}; requests.length = 0; return json(200, {}) }
    if (url.pathname === '/__requests') return json(200, requests)
    // NOTION_API_URL of the e2e server points here: a spec's fake Notion (started in the spec) answers behind it
    if (url.pathname === '/__notion') { notionTarget = body.url ?? null; return json(200, { url: notionTarget }) }
    if (url.pathname.startsWith('/notion/')) {
      if (!notionTarget) return json(503, { object: 'error', status: 503, code: 'service_unavailable', message: 'no fake Notion set (POST /__notion)' })
      const forwarded = await fetch(notionTarget + url.pathname.slice('/notion'.length) + url.search, {
        method: req.method,
        headers: { authorization: req.headers.authorization ?? '', 'notion-version': req.headers['notion-version'] ?? '', 'content-type': 'application/json' },
        body: req.method === 'GET' ? undefined : raw,
      })
      const headers = { 'content-type': 'application/json' }
      if (forwarded.headers.get('retry-after')) headers['retry-after'] = forwarded.headers.get('retry-after')
      res.writeHead(forwarded.status, headers)
      return res.end(await forwarded.text())
    }

    if (url.pathname.startsWith('/v1/')) {
      if (behaviour.down) { req.socket.destroy(); return }
      if (behaviour.requireKey && req.headers.authorization !== `Bearer ${behaviour.requireKey}`) {
        return json(401, { error: { message: 'Incorrect API key provided (fake)', type: 'invalid_request_error', code: 'invalid_api_key' } })
      }
    }

    if (url.pathname === '/v1/models' && req.method === 'GET') {
      requests.push({ path: url.pathname })
      const ids = behaviour.models ?? DEFAULT_MODELS
      return json(200, { object: 'list', data: ids.map(id => ({ id, object: 'model', created: 1700000000, owned_by: 'fake' })) })
    }

    if (url.pathname === '/v1/embeddings') {
      const inputs = Array.isArray(body.input) ? body.input : [body.input]
      const dims = body.dimensions ?? DEFAULT_DIMENSIONS
      // inFlight: embeddings requests unanswered when this one came, itself included
      requests.push({ path: url.pathname, body: { model: body.model, count: inputs.length, dimensions: body.dimensions, encoding_format: body.encoding_format }, inFlight: ++embeddingsInFlight })
      try {
        if (behaviour.embeddingsMode === 'error') return json(500, { error: { message: 'embeddings failed (fake)' } })
        // embeddingsDelayMs: a slow embeddings model (a job then stays mid-sync long enough to be interrupted)
        if (behaviour.embeddingsDelayMs) await sleep(behaviour.embeddingsDelayMs)
      } finally {
        embeddingsInFlight--
      }
      return json(200, {
        object: 'list',
        model: body.model,
        data: inputs.map((input, index) => ({ object: 'embedding', index, embedding: encodeEmbedding(embedText(input, dims), body.encoding_format, behaviour.embeddingsFormat) })),
        usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
      })
    }

    if (url.pathname === '/v1/chat/completions') {
      // receivedAt / firstTokenAt / finishedAt: performance.now() of this process, for benchmarks that subtract the model's time
      const record = { path: url.pathname, headers: { authorization: req.headers.authorization }, body, clientClosed: false, receivedAt }
      requests.push(record)
      if (isRewrite(body) && !body.stream) {
        record.rewrite = true
        if (behaviour.rewriteMode === 'hang') return
        if (behaviour.rewriteMode === 'error') return json(500, { error: { message: 'The model is overloaded (fake)', type: 'server_error' } })
        if (behaviour.rewriteDelayMs) await sleep(behaviour.rewriteDelayMs)
        const content = behaviour.rewriteReply ?? defaultRewrite(body)
        record.firstTokenAt = record.finishedAt = performance.now()
        return json(200, {
          id: 'chatcmpl-fake', object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 20, completion_tokens: content.length, total_tokens: 20 + content.length },
        })
      }
      // clientClosed: the caller closed the connection before the answer was complete (an aborted model call)
      res.on('close', () => { if (!res.writableFinished && !record.dropped) record.clientClosed = true })
      const b = { ...behaviour }
      const reply = b.replyFromTools && toolResults(body).length ? replyFromTools(body) : (b.reply ?? (b.answerFromContext ? answerFromContext(body) : defaultReply(body)))
      const usage = { prompt_tokens: 42, completion_tokens: reply.length, total_tokens: 42 + reply.length }
      if (b.mode === 'hang') return // never answers: the caller's timeout or abort must end it
      if (b.mode === 'error') return json(b.status ?? 500, { error: { message: 'The model is overloaded (fake)', type: 'server_error' } })
      // garbage: a 200 whose body is no chat completion (a wrong OPENAI_BASE_URL pointing at some other server)
      if (b.mode === 'garbage') {
        res.writeHead(200, { 'content-type': body.stream ? 'text/event-stream' : 'application/json' })
        return res.end(body.stream ? 'data: {"not":"a chunk"\n\ndata: <html>\n\n' : '<html>not a model</html>')
      }
      // drop: the connection is closed before any answer, streaming or not
      if (b.mode === 'drop') { record.dropped = true; req.socket.destroy(); return }
      if (b.firstTokenDelayMs) await sleep(b.firstTokenDelayMs)
      if (wantsToolCalls(body, b)) {
        const calls = toolCallsOf(b)
        record.toolCalls = calls
        const base = { id: 'chatcmpl-fake', created: Math.floor(Date.now() / 1000), model: body.model }
        if (!body.stream) return json(200, { ...base, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: calls }, finish_reason: 'tool_calls' }], usage })
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
        const send = data => res.write(`data: ${JSON.stringify(data)}\n\n`)
        sendToolCalls(send, { ...base, object: 'chat.completion.chunk' }, calls)
        if (body.stream_options?.include_usage) send({ ...base, object: 'chat.completion.chunk', choices: [], usage })
        return res.end('data: [DONE]\n\n')
      }
      if (!body.stream) {
        record.firstTokenAt = record.finishedAt = performance.now()
        return json(200, {
          id: 'chatcmpl-fake', object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }],
          usage,
        })
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
      const send = data => res.write(`data: ${JSON.stringify(data)}\n\n`)
      const base = { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: body.model }
      send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })
      const pieces = splitIntoPieces(reply)
      for (const [i, piece] of pieces.entries()) {
        if (res.destroyed) return
        if (b.mode === 'drop-mid-stream' && i === Math.floor(pieces.length / 2)) { record.dropped = true; req.socket.destroy(); return }
        if (b.mode === 'hang-mid-stream' && i === Math.floor(pieces.length / 2)) return
        send({ ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })
        record.firstTokenAt ??= performance.now()
        await sleep(b.delayMs ?? 20)
      }
      send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })
      if (body.stream_options?.include_usage) send({ ...base, choices: [], usage })
      res.end('data: [DONE]\n\n')
      record.finishedAt = performance.now()
      return
    }
    json(404, { error: { message: `no route ${url.pathname}` } })
  })
  server.on('connection', s => { sockets.add(s); s.on('close', () => sockets.delete(s)) })
  // idle connections stay open until the client or close() ends them: with Node's default of 5 s, a request that
  // Playwright's request context sent on a kept-alive socket as the server closed it got ECONNRESET (CI, session 17:
  // a control POST ~5 s after the one before)
  server.keepAliveTimeout = 0
  await new Promise(resolve => server.listen(port, host, resolve))
  const address = server.address()
  const url = `http://${host}:${address.port}`
  return {
    url,
    baseURL: `${url}/v1`,
    port: address.port,
    requests,
    chatRequests: () => requests.filter(r => r.path === '/v1/chat/completions' && !r.rewrite).map(r => r.body),
    rewriteRequests: () => requests.filter(r => r.rewrite).map(r => r.body),
    setBehaviour: b => { behaviour = b ?? {} },
    reset: () => { behaviour = {}; requests.length = 0 },
    close: () => new Promise(resolve => { for (const s of sockets) s.destroy(); server.close(() => resolve()) }),
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.argv[2] ?? 3006)
  const fake = await startFakeOpenAI({ port })
  console.log(`fake OpenAI-compatible server on ${fake.url}`)
}
