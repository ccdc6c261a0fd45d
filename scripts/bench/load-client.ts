// bench:load's visitor (scripts/bench/load-support.ts): one streamed question over real HTTP, as a browser sends it.
// Through node:http, not fetch: the load generator shares the machine's cores with the server it measures, and with
// undici's fetch and web streams the visitors and the fake model took 5.5–6.8 ms of CPU a question, with node:http
// 3.6–4.2 (session 25, docs/benchmarks.md).
import http from 'node:http'
import { createParser } from 'eventsource-parser'

export const KEY = 'ads_bench_load_key_0123456789abcdef'

/** A question's outcome; `conversationId`: the conversation its answer went to (a follow-up continues it). */
export interface Outcome { firstMs: number | null; status: number; conversationId?: string; /** what went wrong, for an error */ detail?: string; /** sent again on a new connection (below) */ resent?: boolean }

// connections kept alive and reused, as a browser's; no pool limit, so that the client never queues a question
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity })

/** One streamed question (in `conversationId`, a follow-up): the time to its first answer event, or its refusal. */
export async function ask(base: string, agentId: string, question: string, conversationId?: string): Promise<Outcome> {
  const started = performance.now()
  const outcome = await askOnce(base, agentId, question, started, conversationId)
  // a kept-alive connection the server closed (idle past its keepAliveTimeout) as this question was written on it:
  // the question never reached the server, which Node's documentation says to send again (`request.reusedSocket`);
  // a browser does the same. Seen about once in 2,000 questions with two web processes (session 30).
  return outcome.stale ? { ...(await askOnce(base, agentId, question, started, conversationId)), resent: true } : outcome
}

function askOnce(base: string, agentId: string, question: string, started: number, conversationId?: string): Promise<Outcome & { stale?: boolean }> {
  const body = JSON.stringify({ query: question, streaming: true, ...(conversationId ? { conversationId } : {}) })
  return new Promise(resolve => {
    let answered = false
    const request = http.request(`${base}/api/agents/${agentId}/query`, {
      method: 'POST',
      agent,
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    }, res => {
      answered = true
      if (res.statusCode !== 200) {
        res.resume()
        return void res.on('close', () => resolve({ firstMs: null, status: res.statusCode ?? 0, detail: `HTTP ${res.statusCode}` }))
      }
      let first: number | null = null
      let done = false
      let answeredIn: string | undefined
      let failure: string | undefined
      const parser = createParser({ onEvent: e => {
        if (e.data.startsWith('[ERROR]')) failure = e.data.slice(0, 200)
        if (first === null && (e.event === 'answer' || (!e.event && e.data !== '[DONE]'))) first = performance.now() - started
        if (e.event === 'endpoint_response') answeredIn = (JSON.parse(e.data) as { conversationId?: string }).conversationId
        if (e.data === '[DONE]') done = true
      } })
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => parser.feed(chunk))
      // an answer cut off (the connection closed before the stream's end) counts as an error
      res.on('close', () => {
        const whole = res.complete && done && first !== null
        resolve({ firstMs: first, status: whole ? 200 : 599, conversationId: answeredIn, ...(whole ? {} : { detail: failure ?? (res.complete ? 'no [DONE]' : 'cut off') }) })
      })
    })
    request.on('error', error => {
      const code = (error as NodeJS.ErrnoException).code ?? error.message
      resolve({ firstMs: null, status: 0, detail: `${code}${request.reusedSocket ? ' on a kept-alive connection' : ''}`, stale: request.reusedSocket && code === 'ECONNRESET' && !answered })
    })
    request.end(body)
  })
}
