// Tools that require an operator's approval (issue 25, Chaindesk's approvals): the model's call waits, the visitor is
// told so (JSON and stream), the inbox lists it, and the operator's decision continues the answer in the conversation.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import * as approvalItem from '@/app/api/conversations/[id]/approvals/[approvalId]/route'
import * as approvals from '@/app/api/conversations/[id]/approvals/route'
import * as conversationItem from '@/app/api/conversations/[id]/route'
import * as agentItem from '@/app/api/agents/[id]/route'
import * as modelMap from '@/app/api/models/map/route'
import * as usage from '@/app/api/usage/route'
import { REFUSED } from '@/lib/agents/approval-decision'
import { INTERRUPTED, decisionLongestMs, settleInterruptedApprovals } from '@/lib/agents/approval-recovery'
import { approvalSettler } from '@/lib/bootstrap'
import { getDatabase, getPrisma } from '@/lib/db/client'
import { startWorker } from '@/lib/ingest/worker'
import { createAgentVia, parseSse, queryAgentVia, useFakeModel } from '../helpers/agents'
import { call, expectErrorBody } from '../helpers/http'
import { createTenant, type TestTenant } from '../helpers/tenants'
import { startOrderApi } from '../helpers/tool-servers'

const model = useFakeModel()
let api: Awaited<ReturnType<typeof startOrderApi>>

beforeAll(async () => {
  api = await startOrderApi()
  process.env.TOOLS_ALLOW_PRIVATE_HOSTS = '1'
  process.env.LIMIT_PUBLIC_QUERIES_PER_MINUTE = '1000000'
})
afterAll(async () => {
  delete process.env.TOOLS_ALLOW_PRIVATE_HOSTS
  await api.close()
})
afterEach(() => {
  api.seen.length = 0
})

const guardedTool = () => ({
  type: 'http',
  name: 'refund_order',
  description: 'Refunds an order',
  method: 'POST',
  url: `${api.url}/tickets`,
  parameters: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] },
  requiresApproval: true,
})

async function askedForRefund(streaming = false) {
  const tenant = await createTenant()
  const agent = await createAgentVia(tenant, { tools: [guardedTool()], visibility: 'public' })
  model.fake.setBehaviour({ toolCalls: [{ name: 'refund_order', arguments: { orderId: 'R-1' } }], replyFromTools: true, delayMs: 0 })
  const res = await queryAgentVia(agent.id, { query: 'Please refund R-1', visitorId: `visitor-${crypto.randomUUID()}`, streaming })
  return { tenant, agent, res }
}

const list = (tenant: TestTenant, id: string) => call(approvals.GET, `/api/conversations/${id}/approvals`, { headers: tenant.headers, params: { id } })
const decide = (tenant: TestTenant, id: string, approvalId: string, decision: string) =>
  call(approvalItem.POST, `/api/conversations/${id}/approvals/${approvalId}`, { method: 'POST', headers: tenant.headers, body: { decision }, params: { id, approvalId } })
const visitorRead = (id: string) => call(conversationItem.GET, `/api/conversations/${id}`, { params: { id } })

describe('a tool that requires approval', () => {
  test('the call is not made; the visitor is told it waits for an operator, and the inbox lists it as pending', async () => {
    const { tenant, res } = await askedForRefund()

    expect(res.status, res.text).toBe(200)
    expect(api.seen).toHaveLength(0)
    expect(res.json.answer).toContain("needs an operator's approval")
    const pending = await list(tenant, res.json.conversationId)
    expect(pending.status, pending.text).toBe(200)
    expect(pending.json.items).toEqual([expect.objectContaining({ tool: 'refund_order', arguments: { orderId: 'R-1' }, status: 'pending', messageId: res.json.messageId })])
    // the model was asked once: the run stopped at the call
    expect(model.fake.chatRequests()).toHaveLength(1)
  })

  test('the conversation says it awaits an approval until the answer after the decision is stored, so a chat knows to look again', async () => {
    const { tenant, res } = await askedForRefund()
    const conversationId = res.json.conversationId
    expect((await visitorRead(conversationId)).json.awaitingApproval).toBe(true)
    const [pending] = (await list(tenant, conversationId)).json.items
    // decided (claimed) while its tool runs and the model continues: still awaited
    await (await getPrisma()).toolApproval.update({ where: { id: pending.id }, data: { status: 'approved', decidedAt: new Date() } })
    expect((await visitorRead(conversationId)).json.awaitingApproval).toBe(true)
    await (await getPrisma()).toolApproval.update({ where: { id: pending.id }, data: { status: 'pending', decidedAt: null } })

    expect((await decide(tenant, conversationId, pending.id, 'approve')).status).toBe(200)

    const after = await visitorRead(conversationId)
    expect(after.json.awaitingApproval).toBe(false)
    expect(after.json.messages.at(-1).text).toContain('T-1')
  })

  test('a streaming client gets the waiting notice as the answer', async () => {
    const { tenant, res } = await askedForRefund(true)
    const { answer, endpointResponse } = parseSse(res.text)
    expect(answer).toContain("needs an operator's approval")
    expect((await list(tenant, endpointResponse!.conversationId)).json.items[0].status).toBe('pending')
  })

  test("approving makes the call and the agent's answer, using its result, appears in the visitor's conversation", async () => {
    const { tenant, res } = await askedForRefund()
    const conversationId = res.json.conversationId
    const listed = await list(tenant, conversationId)
    expect(listed.status, `${res.text} ${listed.text}`).toBe(200)
    const [pending] = listed.json.items

    const decided = await decide(tenant, conversationId, pending.id, 'approve')

    expect(decided.status, decided.text).toBe(200)
    expect(api.seen).toHaveLength(1)
    expect(JSON.parse(api.seen[0].body)).toEqual({ orderId: 'R-1' })
    expect(decided.json.approval).toMatchObject({ status: 'approved', decidedByName: expect.any(String), result: expect.stringContaining('T-1') })
    expect(decided.json.answer.text).toContain('T-1')
    const seen = await visitorRead(conversationId)
    const answers = seen.json.messages.filter((m: any) => m.from === 'agent')
    expect(answers.at(-1).text).toContain('T-1')
    // the model was given the tool's real result in place of the waiting notice
    const last = model.fake.chatRequests().at(-1)
    expect(JSON.stringify(last.messages.filter((m: any) => m.role === 'tool'))).toContain('T-1')
  })

  test("the answer continues on the organization's model map, and counts its tokens but no second query, even at the month's limit", async () => {
    const { tenant, agent, res } = await askedForRefund()
    const conversationId = res.json.conversationId
    const mapped = await call(modelMap.PUT, '/api/models/map', { method: 'PUT', headers: tenant.headers, body: { [agent.modelName]: 'house-model-7b' } })
    expect(mapped.status, mapped.text).toBe(200)
    const usageOf = async () => (await call(usage.GET, '/api/usage', { headers: tenant.headers })).json
    const before = await usageOf()
    expect(before.agentQueries.used).toBe(1)
    // the visitor's one question used the month's whole allowance
    await (await getPrisma()).usageLimit.create({ data: { organizationId: tenant.ctx.organizationId, maxAgentQueries: 1 } })
    const [pending] = (await list(tenant, conversationId)).json.items

    const decided = await decide(tenant, conversationId, pending.id, 'approve')

    expect(decided.status, decided.text).toBe(200)
    expect(decided.json.answer).toMatchObject({ error: null, text: expect.stringContaining('T-1') })
    expect(model.fake.chatRequests().at(-1).model).toBe('house-model-7b')
    const after = await usageOf()
    expect(after.agentQueries.used).toBe(1)
    expect(after.modelTokens.prompt).toBeGreaterThan(before.modelTokens.prompt)
  })

  test("a member's question on another model: the answer continues on that model", async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant, { tools: [guardedTool()] })
    // an id of its own for the name the member asks for, so that the agent's model cannot pass for it
    await call(modelMap.PUT, '/api/models/map', { method: 'PUT', headers: tenant.headers, body: { model_4: 'member-choice' } })
    model.fake.setBehaviour({ toolCalls: [{ name: 'refund_order', arguments: { orderId: 'R-1' } }], replyFromTools: true, delayMs: 0 })
    const res = await queryAgentVia(agent.id, { query: 'Please refund R-1', modelName: 'model_4' }, tenant.headers)
    expect(res.status, res.text).toBe(200)
    expect(model.fake.chatRequests().at(-1).model).toBe('member-choice')
    const [pending] = (await list(tenant, res.json.conversationId)).json.items

    expect((await decide(tenant, res.json.conversationId, pending.id, 'approve')).status).toBe(200)

    expect(model.fake.chatRequests().at(-1).model).toBe('member-choice')
  })

  test("approved in a month the organization has not asked in yet: the tokens start that month's usage", async () => {
    const { tenant, res } = await askedForRefund()
    const conversationId = res.json.conversationId
    // as on the 1st for a question asked on the 31st: the month's row does not exist
    await (await getPrisma()).usage.deleteMany({ where: { organizationId: tenant.ctx.organizationId } })
    const [pending] = (await list(tenant, conversationId)).json.items

    expect((await decide(tenant, conversationId, pending.id, 'approve')).status).toBe(200)

    const after = (await call(usage.GET, '/api/usage', { headers: tenant.headers })).json
    expect(after.agentQueries.used).toBe(0)
    expect(after.modelTokens.prompt).toBeGreaterThan(0)
  })

  test('denying does not call the tool; the model is told and its answer is appended', async () => {
    const { tenant, res } = await askedForRefund()
    const conversationId = res.json.conversationId
    const listed = await list(tenant, conversationId)
    expect(listed.status, `${res.text} ${listed.text}`).toBe(200)
    const [pending] = listed.json.items

    const decided = await decide(tenant, conversationId, pending.id, 'deny')

    expect(decided.status, decided.text).toBe(200)
    expect(api.seen).toHaveLength(0)
    expect(decided.json.approval.status).toBe('denied')
    expect(decided.json.answer.text).toContain('refused')
    const seen = await visitorRead(conversationId)
    expect(seen.json.messages.filter((m: any) => m.from === 'agent').at(-1).text).toContain('refused')
  })

  test('a decided approval cannot be decided again (400), and nothing is called twice', async () => {
    const { tenant, res } = await askedForRefund()
    const conversationId = res.json.conversationId
    const listed = await list(tenant, conversationId)
    expect(listed.status, `${res.text} ${listed.text}`).toBe(200)
    const [pending] = listed.json.items
    await decide(tenant, conversationId, pending.id, 'approve')

    const again = await decide(tenant, conversationId, pending.id, 'deny')

    expect(again.status).toBe(400)
    expectErrorBody(again.json, 'invalid_request')
    expect(api.seen).toHaveLength(1)
  })

  test('a bad decision is a 400; another organization, or no key, cannot see or decide', async () => {
    const { tenant, res } = await askedForRefund()
    const conversationId = res.json.conversationId
    const listed = await list(tenant, conversationId)
    expect(listed.status, `${res.text} ${listed.text}`).toBe(200)
    const [pending] = listed.json.items
    const stranger = await createTenant()

    const expectError = (r: { status: number; json: unknown }, status: number) => {
      expect(r.status).toBe(status)
      expectErrorBody(r.json)
    }
    expectError(await decide(tenant, conversationId, pending.id, 'maybe'), 400)
    expectError(await list(stranger, conversationId), 404)
    expectError(await decide(stranger, conversationId, pending.id, 'approve'), 404)
    const anonymous = await call(approvalItem.POST, `/api/conversations/${conversationId}/approvals/${pending.id}`, { method: 'POST', body: { decision: 'approve' }, params: { id: conversationId, approvalId: pending.id } })
    expectError(anonymous, 401)
    expect(api.seen).toHaveLength(0)
  })

  test('the agent form and API keep requiresApproval', async () => {
    const { tenant, agent } = await askedForRefund()
    const read = await call(agentItem.GET, `/api/agents/${agent.id}`, { headers: tenant.headers, params: { id: agent.id } })
    expect(read.json.tools[0].requiresApproval).toBe(true)
  })
})

describe('a decision a stopped process left without its answer', () => {
  /** The state a process leaves when it stops while the approved call runs: claimed, no result, no answer after. */
  async function interrupted(status: 'approved' | 'denied') {
    const { tenant, res } = await askedForRefund()
    const conversationId = res.json.conversationId
    const [pending] = (await list(tenant, conversationId)).json.items
    await (await getPrisma()).toolApproval.update({ where: { id: pending.id }, data: { status, decidedByName: 'Ada', decidedAt: new Date() } })
    return { tenant, conversationId, approvalId: pending.id as string }
  }
  const soon = () => new Date(Date.now() + 1000)
  const approvalRow = async (id: string) => (await getPrisma()).toolApproval.findUniqueOrThrow({ where: { id } })

  test('is settled once: the call is not made again, the model is told its outcome is unknown, and the visitor gets the answer', async () => {
    const { conversationId, approvalId } = await interrupted('approved')
    expect((await visitorRead(conversationId)).json.awaitingApproval).toBe(true)

    expect(await settleInterruptedApprovals(soon())).toBeGreaterThanOrEqual(1)

    expect(api.seen).toHaveLength(0)
    expect((await approvalRow(approvalId)).result).toBe(INTERRUPTED)
    const after = await visitorRead(conversationId)
    expect(after.json.awaitingApproval).toBe(false)
    expect(after.json.messages.at(-1)).toMatchObject({ from: 'agent', text: expect.stringContaining('whether it was done is unknown') })
    expect(await settleInterruptedApprovals(soon())).toBe(0)
  })

  test("a result saved before the stop is the one the model reads; a decision whose answer was stored is never settled", async () => {
    const { conversationId, approvalId } = await interrupted('approved')
    await (await getPrisma()).toolApproval.update({ where: { id: approvalId }, data: { result: 'Ticket T-9 opened for the refund of R-1' } })

    await settleInterruptedApprovals(soon())

    expect(api.seen).toHaveLength(0)
    expect((await approvalRow(approvalId)).result).toBe('Ticket T-9 opened for the refund of R-1')
    expect((await visitorRead(conversationId)).json.messages.at(-1)).toMatchObject({ from: 'agent', text: expect.stringContaining('T-9') })

    const { tenant, res } = await askedForRefund()
    const [pending] = (await list(tenant, res.json.conversationId)).json.items
    expect((await decide(tenant, res.json.conversationId, pending.id, 'approve')).status).toBe(200)
    const decided = await approvalRow(pending.id)
    await settleInterruptedApprovals(soon())
    expect(await approvalRow(pending.id)).toEqual(decided)
  })

  test('a denied call is settled with the refusal; a decision in progress and a pending approval are left alone', async () => {
    const denied = await interrupted('denied')
    const cutoff = new Date()
    const recent = await interrupted('approved')
    const { tenant, res } = await askedForRefund()
    const [pending] = (await list(tenant, res.json.conversationId)).json.items

    await settleInterruptedApprovals(cutoff)

    expect((await approvalRow(denied.approvalId)).result).toBe(REFUSED)
    expect((await visitorRead(denied.conversationId)).json.awaitingApproval).toBe(false)
    expect((await approvalRow(recent.approvalId)).result).toBeNull()
    expect((await approvalRow(pending.id)).status).toBe('pending')
  })

  test("the worker's housekeeping settles them, and its failure is logged without stopping the worker", async () => {
    const { approvalId } = await interrupted('approved')
    let failures = 0
    const worker = startWorker({
      concurrency: 1,
      pollMs: 20,
      housekeeping: { 'a failing chore': async () => {
          failures++
          throw new Error('the chore failed')
        }, settle: () => settleInterruptedApprovals(soon()) },
    })
    try {
      await expect.poll(async () => (await approvalRow(approvalId)).result, { timeout: 20_000 }).toBe(INTERRUPTED)
      expect(failures).toBe(1)
    } finally {
      await worker.stop()
    }
  })

  test('the process settles, on the embedded database, every decision made before it started; on PostgreSQL, those older than the longest a decision takes', async () => {
    const db = await getDatabase()
    const { approvalId } = await interrupted('approved')
    const prisma = await getPrisma()
    if (db.kind === 'pglite') {
      await (await approvalSettler(db, Date.now() - 60_000))()
      expect((await approvalRow(approvalId)).result).toBeNull()
      await (await approvalSettler(db, Date.now() + 1000))()
    } else {
      // decided (and asked before that) as long ago as a decision may still be running, then longer
      const decidedAgo = async (ms: number) => {
        const decidedAt = new Date(Date.now() - ms)
        const { conversationId } = await prisma.toolApproval.update({ where: { id: approvalId }, data: { decidedAt } })
        await prisma.message.updateMany({ where: { conversationId }, data: { createdAt: new Date(decidedAt.getTime() - 60_000) } })
      }
      await decidedAgo(decisionLongestMs() - 60_000)
      await (await approvalSettler(db, Date.now() + 1000))()
      expect((await approvalRow(approvalId)).result).toBeNull()
      await decidedAgo(decisionLongestMs() + 1000)
      await (await approvalSettler(db, Date.now() + 1000))()
    }
    expect((await approvalRow(approvalId)).result).toBe(INTERRUPTED)
  })
})
