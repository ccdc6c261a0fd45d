// An agent's MCP servers (issue 25): their tools are listed when the agent is saved and kept with it, so a question
// does not list them again; "Refresh tools" lists them anew; a server that cannot be listed is saved with the error.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as agentItem from '@/app/api/agents/[id]/route'
import * as refresh from '@/app/api/agents/[id]/tools/refresh/route'
import { createAgentVia, queryAgentVia, useFakeModel } from '../helpers/agents'
import { call } from '../helpers/http'
import { createTenant, type TestTenant } from '../helpers/tenants'
import { startStockMcpServer } from '../helpers/tool-servers'

const model = useFakeModel()
let stock: Awaited<ReturnType<typeof startStockMcpServer>>

beforeAll(async () => {
  stock = await startStockMcpServer()
  process.env.TOOLS_ALLOW_PRIVATE_HOSTS = '1'
})
afterAll(async () => {
  delete process.env.TOOLS_ALLOW_PRIVATE_HOSTS
  await stock.close()
})

const lists = () => stock.methods.filter(m => m === 'tools/list').length
const refreshTools = (tenant: TestTenant, id: string) => call(refresh.POST, `/api/agents/${id}/tools/refresh`, { method: 'POST', headers: tenant.headers, params: { id } })

describe("an MCP server's tools", () => {
  test('are listed once when the agent is saved, and shown in the agent resource', async () => {
    const tenant = await createTenant()
    const before = lists()
    const agent = await createAgentVia(tenant, { tools: [{ type: 'mcp', name: 'stock', url: stock.url }] })
    expect(lists()).toBe(before + 1)
    expect(agent.tools[0]).toMatchObject({ type: 'mcp', tools: [{ name: 'check_stock', description: 'How many units of a product are in stock' }], listedAt: expect.any(String), listError: null })
  })

  test('a question does not list them again, and the model\'s call still reaches the server', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant, { tools: [{ type: 'mcp', name: 'stock', url: stock.url }] })
    const listed = lists()
    model.fake.setBehaviour({ reply: 'No call this time.', delayMs: 0 })
    await queryAgentVia(agent.id, { query: 'Hello' }, tenant.headers)
    model.fake.setBehaviour({ toolCalls: [{ name: 'stock__check_stock', arguments: { sku: 'LID-9' } }], replyFromTools: true, delayMs: 0 })
    const res = await queryAgentVia(agent.id, { query: 'Is the lid in stock?' }, tenant.headers)

    expect(lists()).toBe(listed)
    expect(res.json.answer).toContain('LID-9: 12 units in stock')
    expect(model.fake.chatRequests()[0].tools.map((t: any) => t.function.name)).toEqual(['stock__check_stock'])
  })

  test('"Refresh tools" lists them again', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant, { tools: [{ type: 'mcp', name: 'stock', url: stock.url }] })
    const listed = lists()

    const res = await refreshTools(tenant, agent.id)

    expect(res.status, res.text).toBe(200)
    expect(lists()).toBe(listed + 1)
    expect(res.json.tools[0].tools.map((t: any) => t.name)).toEqual(['check_stock'])
    expect((await refreshTools(await createTenant(), agent.id)).status).toBe(404)
  })

  test('a server that cannot be reached when saved is kept with the error, and the answer goes on without it', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant, { tools: [{ type: 'mcp', name: 'gone', url: 'http://127.0.0.1:9/mcp' }] })
    expect(agent.tools[0]).toMatchObject({ tools: [], listError: expect.stringContaining("could not list the server's tools") })
    model.fake.setBehaviour({ reply: 'Still here.', delayMs: 0 })
    const res = await queryAgentVia(agent.id, { query: 'Anything?' }, tenant.headers)
    expect(res.json.answer).toBe('Still here.')
  })

  test('a PATCH that leaves the tools out keeps the list; one that gives them lists again', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant, { tools: [{ type: 'mcp', name: 'stock', url: stock.url }] })
    const listed = lists()
    const patch = (body: object) => call(agentItem.PATCH, `/api/agents/${agent.id}`, { method: 'PATCH', headers: tenant.headers, body: { description: 'd', ...body }, params: { id: agent.id } })
    expect((await patch({ name: 'Renamed' })).json.tools[0].tools).toHaveLength(1)
    expect(lists()).toBe(listed)
    await patch({ tools: [{ type: 'mcp', name: 'stock', url: stock.url }] })
    expect(lists()).toBe(listed + 1)
  })
})
