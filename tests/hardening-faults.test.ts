// Hardening (issue 6) part 4: faults. A sync worker killed with SIGKILL in the middle of a job, on the embedded
// database on disk, and a second worker process that takes the job over once the lease expires: the datasource ends
// `synched` with no duplicate chunks, and PGlite's folder survives each kill. A model server that hangs, fails or
// drops the connection (before or in the middle of a stream) gives `[ERROR]` or a 5xx JSON error within the timeout,
// and the conversation keeps the question.
import fs from 'node:fs'
import { describe, expect, test } from 'vitest'
import * as conversationItem from '@/app/api/conversations/[id]/route'
import * as agentConversations from '@/app/api/agents/[id]/conversations/route'
import * as usage from '@/app/api/usage/route'
import { killAndRecover } from '@/scripts/reliability/kill9'
import { createAgentVia, parseSse, queryAgentVia, useFakeModel } from './helpers/agents'
import { saveFigures } from './helpers/hardening/measure'
import { call, expectErrorBody } from './helpers/http'
import { createTenant } from './helpers/tenants'

process.env.AGENT_MODEL_TIMEOUT_SECONDS = '1'
const TIMEOUT_MS = 1000
const model = useFakeModel()

// child processes on an embedded DATA_DIR of their own: the same whichever database the file runs on
describe.skipIf(process.env.TEST_DATABASE === 'postgres')('kill -9 of the sync worker', () => {
  test('a worker killed mid-job (twice, while embedding) leaves a readable database, and the next worker synchs the datasource with no duplicate chunks', async () => {
    const lines: string[] = []
    const report = await killAndRecover({
      fake: model.fake,
      chunks: 300,
      embeddingsDelayMs: 400,
      // 300 chunks are 4 embeddings requests of 96: killed while the 2nd is answered, then while the last is (kills
      // at random moments, around the chunk write too, are the long run of scripts/reliability/kill9.ts)
      plans: [{ at: 'embeddings', value: 2, plusMs: 100 }, { at: 'embeddings', value: 4, plusMs: 200 }],
      log: line => lines.push(line),
    })
    fs.rmSync(report.dataDir, { recursive: true, force: true })
    saveFigures('hardening-faults', { kill9: { cycles: report.cycles, final: report.final, recoveryMs: report.recoveryMs } })
    for (const cycle of report.cycles) {
      const after = cycle.afterKill as { readable: boolean; status: string; visible: number; nbChunks: number; duplicates: number }
      expect(after.readable, lines.join('\n')).toBe(true)
      expect(cycle.finishedBeforeKill, `the job was still running when killed: ${lines.join('\n')}`).toBe(false)
      // searches see the previous chunks or the new ones, never a part of them (a first synchronisation is written in
      // steps, its chunks searched once the last is written: lib/ingest/lifecycle/write-steps.ts)
      expect(after.duplicates).toBe(0)
      expect([0, after.nbChunks]).toContain(after.visible)
    }
    const final = report.final as { status: string; count: number; nbChunks: number; positions: number; duplicates: number; minPos: number; maxPos: number; embedded: number; attempts: number }
    expect(final.status, lines.join('\n')).toBe('synched')
    expect(final.count).toBe(final.nbChunks)
    expect(final.count).toBeGreaterThan(250)
    expect(final.duplicates).toBe(0)
    expect(final.positions).toBe(final.count)
    expect([final.minPos, final.maxPos]).toEqual([0, final.count - 1])
    expect(final.embedded).toBe(final.count)
    expect(final.attempts).toBe(0)
  }, 120_000)
})

describe('a failing model server', () => {
  const MODES = ['hang', 'error', 'drop', 'drop-mid-stream', 'hang-mid-stream'] as const
  const figures: Record<string, { streaming: boolean; status: number; ms: number; ending: string }> = {}

  for (const mode of MODES) {
    // the mid-stream faults exist only for a streamed model answer, which only a streaming query asks for
    for (const streaming of mode.endsWith('mid-stream') ? [true] : [true, false]) {
      test(`${mode}, ${streaming ? 'streaming' : 'JSON'}: an [ERROR] or a 5xx JSON error within the timeout, and the question is kept`, async () => {
        // a silent model is cut at the timeout (1 s here); a failing one is retried once (the ai SDK waits 2 s) and
        // reported as a failure, given a timeout longer than that wait
        const silent = mode.startsWith('hang')
        const timeoutSeconds = silent ? 1 : 4
        process.env.AGENT_MODEL_TIMEOUT_SECONDS = String(timeoutSeconds)
        const tenant = await createTenant()
        const agent = await createAgentVia(tenant)
        model.fake.setBehaviour({ mode, reply: 'A long answer that the server will not finish sending, piece by piece.', delayMs: 5 })
        const visitorId = `visitor-${mode}-${streaming}`
        const query = `What happens when the model is ${mode}?`
        const started = performance.now()
        const res = await queryAgentVia(agent.id, { query, streaming, visitorId }, tenant.headers)
        const ms = Math.round(performance.now() - started)
        let ending: string
        if (streaming && res.status === 200) {
          expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
          const sse = parseSse(res.text)
          const last = sse.events.at(-1)
          expect(last?.type, res.text).toBe('error')
          ending = last?.type === 'error' ? `[ERROR] ${last.message}` : ''
          expect(sse.events.some(e => e.type === 'done')).toBe(false)
        } else {
          expect(res.status, res.text).toBeGreaterThanOrEqual(500)
          expectErrorBody(res.json, 'upstream_unavailable')
          ending = `${res.status} ${res.json.error.message}`
        }
        process.env.AGENT_MODEL_TIMEOUT_SECONDS = '1'
        figures[`${mode} ${streaming ? 'stream' : 'json'}`] = { streaming, status: res.status, ms, ending: ending.slice(0, 120) }
        expect(ending).toMatch(silent ? /did not answer within 1 s/ : /The model failed/)
        expect(ending).not.toContain('sk-test')
        if (!streaming) expect(res.status).toBe(silent ? 504 : 502)
        // the timeout, or the one retry's back-off, plus the test's own overhead
        expect(ms).toBeLessThan(silent ? TIMEOUT_MS + 2000 : 2000 + 3000)

        const list = await call(agentConversations.GET, `/api/agents/${agent.id}/conversations`, { headers: tenant.headers, params: { id: agent.id } })
        const conversation = list.json.find((c: { visitorId: string }) => c.visitorId === visitorId)
        expect(conversation, JSON.stringify(list.json)).toBeDefined()
        const detail = await call(conversationItem.GET, `/api/conversations/${conversation.id}`, { headers: tenant.headers, params: { id: conversation.id } })
        const question = detail.json.messages.find((m: { role: string }) => m.role === 'user')
        expect(question.text).toBe(query)
        const answer = detail.json.messages.find((m: { role: string }) => m.role === 'assistant')
        expect(answer?.error, JSON.stringify(detail.json.messages)).toBeTruthy()
        // a query the model never answered is not counted
        const used = (await call(usage.GET, '/api/usage', { headers: tenant.headers })).json.agentQueries.used
        if (!mode.endsWith('mid-stream')) expect(used).toBe(0)
      }, 30_000)
    }
  }

  test('after the failures the model answers again, in the same conversation', async () => {
    saveFigures('hardening-faults', { model: figures })
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ mode: 'error' })
    const failed = await queryAgentVia(agent.id, { query: 'First question?', visitorId: 'v-again' }, tenant.headers)
    expect(failed.status).toBeGreaterThanOrEqual(500)
    model.fake.setBehaviour({ reply: 'Now it works.', delayMs: 1 })
    const list = await call(agentConversations.GET, `/api/agents/${agent.id}/conversations`, { headers: tenant.headers, params: { id: agent.id } })
    const conversationId = list.json[0].id
    const ok = await queryAgentVia(agent.id, { query: 'Second question?', conversationId, visitorId: 'v-again', streaming: true }, tenant.headers)
    const sse = parseSse(ok.text)
    expect(sse.answer).toBe('Now it works.')
    expect(sse.endpointResponse?.conversationId).toBe(conversationId)
    const detail = await call(conversationItem.GET, `/api/conversations/${conversationId}`, { headers: tenant.headers, params: { id: conversationId } })
    expect(detail.json.messages.filter((m: { role: string }) => m.role === 'user').map((m: { text: string }) => m.text)).toEqual(['First question?', 'Second question?'])
  })
})

describe('text that is hard to count', () => {
  test('a question of 16,000 repeated letters, then a follow-up in its conversation, are answered within bounded time', async () => {
    // counting runs synchronously: a super-linear tokenizer would block this process for minutes, so probe first
    const { countTokens } = await import('@/lib/ingest/tokenizer')
    countTokens('warm') // the first count builds the encoder's tables (~0.3 s): not what is probed
    // the fastest of a few counts: a super-linear tokenizer is slow every time, while a busy machine (CI's 2 cores,
    // other test files) may hold one count up (187 ms once in a gate, a few ms otherwise)
    let probeMs = Infinity
    for (let attempt = 0; attempt < 5 && probeMs >= 100; attempt++) {
      const probe = performance.now()
      countTokens('='.repeat(5000))
      probeMs = Math.min(probeMs, performance.now() - probe)
    }
    expect(probeMs, `counting the tokens of a run of 5,000 "=" took at least ${Math.round(probeMs)} ms`).toBeLessThan(100)
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ reply: 'Noted.', delayMs: 1 })
    const started = performance.now()
    const first = await queryAgentVia(agent.id, { query: 'a'.repeat(16_000) }, tenant.headers)
    expect(first.status, first.text).toBe(200)
    // the follow-up sends the first question as history, whose tokens are counted
    const second = await queryAgentVia(agent.id, { query: `${'='.repeat(8000)} ${' '.repeat(7000)}?`, conversationId: first.json.conversationId }, tenant.headers)
    expect(second.status, second.text).toBe(200)
    const third = await queryAgentVia(agent.id, { query: 'And now?', conversationId: first.json.conversationId }, tenant.headers)
    expect(third.status).toBe(200)
    const ms = Math.round(performance.now() - started)
    saveFigures('hardening-faults', { hardToCountQuestions: { ms } })
    expect(ms).toBeLessThan(5000)
  }, 600_000)
})

describe('a restart of the embedded service after a crash', () => {
  // the embedded database only: on Postgres other live workers hold leases (tests/postgres-behaviour.test.ts)
  test.skipIf(process.env.TEST_DATABASE === 'postgres')("takes over the dead worker's jobs at once instead of waiting for their leases to expire", async () => {
    const { startServer } = await import('@/lib/server-start')
    const { getPrisma } = await import('@/lib/db/client')
    const { drainQueue } = await import('@/lib/ingest/worker')
    const { upsertDocuments } = await import('@/lib/datastores/upsert')
    const { createDatastore } = await import('@/lib/datastores/datastores')
    const tenant = await createTenant()
    const store = await createDatastore(tenant.ctx, { name: 'crash' })
    const { ids } = await upsertDocuments(tenant.ctx, store.id, [{ text: 'The kettle warranty is two years.' }])
    const prisma = await getPrisma()
    // as a worker killed mid-job leaves it: running, leased for another five minutes
    await prisma.datasource.update({ where: { id: ids[0] }, data: { status: 'running', leaseOwner: 'dead-host:4242:abcdef', leaseExpiresAt: new Date(Date.now() + 300_000), attempts: 1 } })
    expect(await drainQueue()).toBe(0)
    await startServer() // WORKER=off in tests: what the start does before the worker runs
    expect(await drainQueue()).toBe(1)
    expect((await prisma.datasource.findUniqueOrThrow({ where: { id: ids[0] } })).status).toBe('synched')
  })
})
