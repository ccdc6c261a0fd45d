// Agents that act (issue 25): an agent's HTTP tools and MCP servers, offered to the model through the `ai` SDK's tool
// calling, against the fake OpenAI-compatible server (which emits tool_calls) and real servers on 127.0.0.1.
import dns from 'node:dns/promises'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import * as agentItem from '@/app/api/agents/[id]/route'
import * as conversationMessages from '@/app/api/conversations/[id]/messages/route'
import * as conversationItem from '@/app/api/conversations/[id]/route'
import { getPrisma } from '@/lib/db/client'
import { createAgentVia, getAgentVia, parseSse, queryAgentVia, useFakeModel } from '../helpers/agents'
import { call } from '../helpers/http'
import { createTenant } from '../helpers/tenants'
import { startOrderApi, startStockMcpServer } from '../helpers/tool-servers'

const model = useFakeModel()
const SECRET = 'sk-orders-7f3a9c1e5b'
let api: Awaited<ReturnType<typeof startOrderApi>>
let stock: Awaited<ReturnType<typeof startStockMcpServer>>

beforeAll(async () => {
  api = await startOrderApi()
  stock = await startStockMcpServer()
  process.env.TOOLS_ALLOW_PRIVATE_HOSTS = '1'
})
afterAll(async () => {
  delete process.env.TOOLS_ALLOW_PRIVATE_HOSTS
  await api.close()
  await stock.close()
})
afterEach(() => {
  api.seen.length = 0
  stock.calls.length = 0
})

const orderTool = (url = `${api.url}/orders/{orderId}`) => ({
  type: 'http',
  name: 'get_order',
  description: 'The status of an order',
  method: 'GET',
  url,
  headers: { 'X-Api-Key': SECRET },
  parameters: { type: 'object', properties: { orderId: { type: 'string' }, verbose: { type: 'boolean' } }, required: ['orderId'] },
})

async function agentWithTools(tools: unknown[]) {
  const tenant = await createTenant()
  const agent = await createAgentVia(tenant, { tools })
  return { tenant, agent }
}

describe('an agent with an HTTP tool', () => {
  test("the model's tool call reaches the API with the secret header, and the answer uses its result", async () => {
    const { tenant, agent } = await agentWithTools([orderTool()])
    model.fake.setBehaviour({ toolCalls: [{ name: 'get_order', arguments: { orderId: 'A/17', verbose: true } }], replyFromTools: true, delayMs: 0 })

    const res = await queryAgentVia(agent.id, { query: 'Where is my order A/17?' }, tenant.headers)

    expect(res.status).toBe(200)
    expect(api.seen).toHaveLength(1)
    expect(api.seen[0].url).toBe('/orders/A%2F17?verbose=true')
    expect(api.seen[0].headers['x-api-key']).toBe(SECRET)
    expect(res.json.answer).toContain('shipped on Tuesday')
    expect(res.json.toolCalls).toEqual([expect.objectContaining({ tool: 'get_order', kind: 'http', ok: true, arguments: { orderId: 'A/17', verbose: true } })])
    const [first, second] = model.fake.chatRequests()
    expect(first.tools.map((t: any) => t.function.name)).toEqual(['get_order'])
    expect(second.messages.at(-1)).toMatchObject({ role: 'tool' })
  })

  test('streaming: tool_call and tool_result events, then the answer that uses the result', async () => {
    const { tenant, agent } = await agentWithTools([orderTool()])
    model.fake.setBehaviour({ toolCalls: [{ name: 'get_order', arguments: { orderId: 'B-2' } }], replyFromTools: true, delayMs: 0 })

    const res = await queryAgentVia(agent.id, { query: 'Where is B-2?', streaming: true }, tenant.headers)

    const { wire, answer, endpointResponse } = parseSse(res.text)
    const names = wire.map(e => e.event).filter(Boolean)
    expect(names.indexOf('tool_call')).toBeLessThan(names.indexOf('tool_result'))
    expect(names.indexOf('tool_result')).toBeLessThan(names.indexOf('answer'))
    expect(JSON.parse(wire.find(e => e.event === 'tool_result')!.data)).toMatchObject({ tool: 'get_order', ok: true })
    expect(answer).toContain('shipped on Tuesday')
    expect(endpointResponse?.toolCalls?.[0].tool).toBe('get_order')
    expect(api.seen[0].headers['x-api-key']).toBe(SECRET)
  })

  test("Chaindesk's stream encoding carries no tool events", async () => {
    const { tenant, agent } = await agentWithTools([orderTool()])
    model.fake.setBehaviour({ toolCalls: [{ name: 'get_order', arguments: { orderId: 'C3' } }], replyFromTools: true, delayMs: 0 })

    const res = await queryAgentVia(agent.id, { query: 'Where is C3?', streaming: true, streamEncoding: 'chaindesk' }, tenant.headers)

    expect(res.text).not.toContain('tool_call')
    expect(res.text).not.toContain('tool_result')
    expect(decodeURIComponent(res.text)).toContain('shipped on Tuesday')
  })

  test('a tool answering 500 still yields an answer; the model is told the error', async () => {
    const { tenant, agent } = await agentWithTools([{ ...orderTool(`${api.url}/broken`), parameters: { type: 'object', properties: {} } }])
    model.fake.setBehaviour({ toolCalls: [{ name: 'get_order', arguments: {} }], replyFromTools: true, delayMs: 0 })

    const res = await queryAgentVia(agent.id, { query: 'Where is my order?' }, tenant.headers)

    expect(res.status).toBe(200)
    expect(res.json.answer).toContain('HTTP 500')
    expect(res.json.toolCalls[0]).toMatchObject({ ok: false, error: expect.stringContaining('HTTP 500') })
  })

  test('a POST tool sends the arguments left after the URL as a JSON body', async () => {
    const tool = { ...orderTool(`${api.url}/tickets`), name: 'open_ticket', method: 'POST', parameters: { type: 'object', properties: { subject: { type: 'string' }, priority: { type: 'integer' } } } }
    const { tenant, agent } = await agentWithTools([tool])
    model.fake.setBehaviour({ toolCalls: [{ name: 'open_ticket', arguments: { subject: 'Broken lid', priority: 2 } }], replyFromTools: true, delayMs: 0 })

    const res = await queryAgentVia(agent.id, { query: 'My kettle lid broke' }, tenant.headers)

    expect(api.seen[0]).toMatchObject({ method: 'POST', url: '/tickets' })
    expect(JSON.parse(api.seen[0].body)).toEqual({ subject: 'Broken lid', priority: 2 })
    expect(api.seen[0].headers['content-type']).toBe('application/json')
    expect(res.json.answer).toContain('T-1')
  })

  test('a tool slower than TOOLS_TIMEOUT_SECONDS is an error result, and the answer goes on', async () => {
    const { tenant, agent } = await agentWithTools([{ ...orderTool(`${api.url}/slow`), parameters: { type: 'object', properties: {} } }])
    model.fake.setBehaviour({ toolCalls: [{ name: 'get_order', arguments: {} }], replyFromTools: true, delayMs: 0 })
    process.env.TOOLS_TIMEOUT_SECONDS = '1'
    try {
      const res = await queryAgentVia(agent.id, { query: 'Where is my order?' }, tenant.headers)
      expect(res.status).toBe(200)
      expect(res.json.toolCalls[0]).toMatchObject({ ok: false, error: expect.stringContaining('did not answer within 1 s') })
      expect(res.json.toolCalls[0].durationMs).toBeGreaterThanOrEqual(900)
    } finally {
      delete process.env.TOOLS_TIMEOUT_SECONDS
    }
  })

  test('a response over TOOLS_MAX_RESPONSE_KB is refused; one over TOOLS_RESULT_CHARS is cut for the model', async () => {
    const big = { ...orderTool(`${api.url}/big`), parameters: { type: 'object', properties: { bytes: { type: 'integer' } } } }
    const { tenant, agent } = await agentWithTools([big])
    process.env.TOOLS_MAX_RESPONSE_KB = '4'
    process.env.TOOLS_RESULT_CHARS = '100'
    try {
      model.fake.setBehaviour({ toolCalls: [{ name: 'get_order', arguments: { bytes: 8000 } }], replyFromTools: true, delayMs: 0 })
      const tooBig = await queryAgentVia(agent.id, { query: 'Big?' }, tenant.headers)
      model.fake.setBehaviour({ toolCalls: [{ name: 'get_order', arguments: { bytes: 3000 } }], replyFromTools: true, delayMs: 0 })
      const cut = await queryAgentVia(agent.id, { query: 'Smaller?' }, tenant.headers)

      expect(tooBig.json.toolCalls[0]).toMatchObject({ ok: false, error: expect.stringContaining('larger than 4 KB (TOOLS_MAX_RESPONSE_KB)') })
      expect(cut.json.toolCalls[0]).toMatchObject({ ok: true, result: expect.stringContaining('[truncated: 2900 more characters]') })
      expect(cut.json.toolCalls[0].result.startsWith('x'.repeat(100) + '\n')).toBe(true)
    } finally {
      delete process.env.TOOLS_MAX_RESPONSE_KB
      delete process.env.TOOLS_RESULT_CHARS
    }
  })

  test('a private address is refused unless TOOLS_ALLOW_PRIVATE_HOSTS is set, and the answer goes on', async () => {
    const { tenant, agent } = await agentWithTools([orderTool()])
    model.fake.setBehaviour({ toolCalls: [{ name: 'get_order', arguments: { orderId: 'D4' } }], replyFromTools: true, delayMs: 0 })
    delete process.env.TOOLS_ALLOW_PRIVATE_HOSTS
    try {
      const res = await queryAgentVia(agent.id, { query: 'Where is D4?' }, tenant.headers)
      expect(res.status).toBe(200)
      expect(res.json.toolCalls[0]).toMatchObject({ ok: false, error: expect.stringContaining('private address') })
      expect(api.seen).toHaveLength(0)
    } finally {
      process.env.TOOLS_ALLOW_PRIVATE_HOSTS = '1'
    }
  })

  test('the tool calls are recorded on the answer, as the conversation shows them', async () => {
    const { tenant, agent } = await agentWithTools([orderTool()])
    model.fake.setBehaviour({ toolCalls: [{ name: 'get_order', arguments: { orderId: 'E5' } }], replyFromTools: true, delayMs: 0 })
    const res = await queryAgentVia(agent.id, { query: 'Where is E5?' }, tenant.headers)

    const conversation = await call(conversationItem.GET, `/api/conversations/${res.json.conversationId}`, { headers: tenant.headers, params: { id: res.json.conversationId } })

    const reviewed = await call(conversationMessages.GET, `/api/conversations/${res.json.conversationId}/messages`, { headers: tenant.headers, params: { id: res.json.conversationId } })
    expect(reviewed.json.messages.find((m: any) => m.role === 'assistant').toolCalls[0]).toMatchObject({ tool: 'get_order', ok: true })
    const answer = conversation.json.messages.find((m: any) => m.role === 'assistant')
    // both model steps count: the fake reports 42 prompt tokens a call
    expect(answer.promptTokens).toBe(84)
    expect(answer.toolCalls).toEqual([expect.objectContaining({ tool: 'get_order', ok: true, result: expect.stringContaining('shipped'), durationMs: expect.any(Number) })])
  })
})

describe('what callers see of the tools', () => {
  test("a public agent's visitor gets the answer, without the tool events or the recorded calls", async () => {
    const { tenant, agent } = await agentWithTools([orderTool()])
    await call(agentItem.PATCH, `/api/agents/${agent.id}`, { method: 'PATCH', headers: tenant.headers, body: { description: 'public', visibility: 'public' }, params: { id: agent.id } })
    model.fake.setBehaviour({ toolCalls: [{ name: 'get_order', arguments: { orderId: 'H8' } }], replyFromTools: true, delayMs: 0 })

    const json = await queryAgentVia(agent.id, { query: 'Where is H8?', visitorId: 'visitor-h8' })
    const stream = await queryAgentVia(agent.id, { query: 'Where is H8 now?', visitorId: 'visitor-h8', streaming: true })

    expect(json.json.answer).toContain('shipped')
    expect(json.json.toolCalls).toBeUndefined()
    expect(parseSse(stream.text).wire.map(e => e.event)).not.toContain('tool_call')
    expect(parseSse(stream.text).wire.map(e => e.event)).not.toContain('tool_result')
    expect(parseSse(stream.text).endpointResponse?.toolCalls).toBeUndefined()
  })
})

describe('an agent with an MCP server', () => {
  test("the server's tools are offered under the server's name, and the model's call reaches it", async () => {
    const { tenant, agent } = await agentWithTools([{ type: 'mcp', name: 'stock', url: stock.url, headers: { Authorization: 'Bearer mcp-secret-1' } }])
    model.fake.setBehaviour({ toolCalls: [{ name: 'stock__check_stock', arguments: { sku: 'KETTLE-1' } }], replyFromTools: true, delayMs: 0 })

    const res = await queryAgentVia(agent.id, { query: 'Is the kettle in stock?' }, tenant.headers)

    expect(res.status).toBe(200)
    expect(stock.calls).toEqual(['KETTLE-1'])
    expect(stock.seenHeaders.at(-1)?.authorization).toBe('Bearer mcp-secret-1')
    expect(res.json.answer).toContain('KETTLE-1: 12 units in stock')
    expect(model.fake.chatRequests()[0].tools.map((t: any) => t.function.name)).toEqual(['stock__check_stock'])
  })

  test('the connection goes to the address that was checked, never to a second DNS answer (no DNS rebinding)', async () => {
    // a name only the check's lookup knows (the system's resolver has never heard of it): the server is reached only
    // when the connection uses the very address the private-address rule checked
    const resolve = dns.lookup.bind(dns)
    const lookup = vi.spyOn(dns, 'lookup').mockImplementation(((host: string, options: object) =>
      host === 'stock.rebind.test' ? Promise.resolve([{ address: '127.0.0.1', family: 4 }]) : resolve(host, options as never)) as typeof dns.lookup)
    try {
      const { tenant, agent } = await agentWithTools([{ type: 'mcp', name: 'stock', url: stock.url.replace('127.0.0.1', 'stock.rebind.test') }])
      model.fake.setBehaviour({ toolCalls: [{ name: 'stock__check_stock', arguments: { sku: 'KETTLE-2' } }], replyFromTools: true, delayMs: 0 })

      const res = await queryAgentVia(agent.id, { query: 'Is the other kettle in stock?' }, tenant.headers)

      expect(res.status).toBe(200)
      expect(stock.calls).toEqual(['KETTLE-2'])
      expect(lookup).toHaveBeenCalledWith('stock.rebind.test', expect.anything())
    } finally {
      lookup.mockRestore()
    }
  })

  test('an MCP server that cannot be reached costs its tools, not the answer', async () => {
    const { tenant, agent } = await agentWithTools([{ type: 'mcp', name: 'gone', url: 'http://127.0.0.1:9/mcp' }])
    model.fake.setBehaviour({ reply: 'No tools today.', delayMs: 0 })

    const res = await queryAgentVia(agent.id, { query: 'Anything?' }, tenant.headers)

    expect(res.status).toBe(200)
    expect(res.json.answer).toBe('No tools today.')
    expect(model.fake.chatRequests()[0].tools).toBeUndefined()
  })
})

describe("a tool's secrets", () => {
  test('the header secret never appears in any API response or log', async () => {
    const output: string[] = []
    const spies = (['log', 'error', 'warn', 'info'] as const).map(level => vi.spyOn(console, level).mockImplementation((...args) => void output.push(args.join(' '))))
    try {
      const { tenant, agent } = await agentWithTools([orderTool(), { ...orderTool(`${api.url}/broken`), name: 'broken' }])
      model.fake.setBehaviour({ toolCalls: [{ name: 'get_order', arguments: { orderId: 'F6' } }, { name: 'broken', arguments: { orderId: 'F6' } }], replyFromTools: true, delayMs: 0 })
      const answers = [
        JSON.stringify(agent),
        (await getAgentVia(agent.id, tenant.headers)).text,
        (await queryAgentVia(agent.id, { query: 'F6?' }, tenant.headers)).text,
        (await queryAgentVia(agent.id, { query: 'F6 again?', streaming: true }, tenant.headers)).text,
        (await call(agentItem.PATCH, `/api/agents/${agent.id}`, { method: 'PATCH', headers: tenant.headers, body: { description: 'x', tools: [orderTool()] }, params: { id: agent.id } })).text,
      ]
      expect(api.seen.some(r => r.headers['x-api-key'] === SECRET)).toBe(true)
      for (const text of [...answers, ...output]) expect(text).not.toContain(SECRET)
      expect(JSON.parse(answers[1]).tools[0].headers).toEqual({ 'X-Api-Key': '********' })
      const stored = await (await getPrisma()).agent.findUniqueOrThrow({ where: { id: agent.id } })
      expect(JSON.stringify(stored.tools)).not.toContain(SECRET)
    } finally {
      for (const spy of spies) spy.mockRestore()
    }
  })

  test('PATCH with the masked value keeps the stored secret; a new value replaces it', async () => {
    const { tenant, agent } = await agentWithTools([orderTool()])
    const patch = (headers: Record<string, string>) =>
      call(agentItem.PATCH, `/api/agents/${agent.id}`, { method: 'PATCH', headers: tenant.headers, body: { description: 'd', tools: [{ ...orderTool(), headers }] }, params: { id: agent.id } })
    model.fake.setBehaviour({ toolCalls: [{ name: 'get_order', arguments: { orderId: 'G7' } }], replyFromTools: true, delayMs: 0 })

    expect((await patch({ 'X-Api-Key': '********' })).status).toBe(200)
    await queryAgentVia(agent.id, { query: 'G7?' }, tenant.headers)
    expect((await patch({ 'X-Api-Key': 'sk-rotated' })).status).toBe(200)
    await queryAgentVia(agent.id, { query: 'G7 again?' }, tenant.headers)

    expect(api.seen.map(r => r.headers['x-api-key'])).toEqual([SECRET, 'sk-rotated'])
  })
})

describe('saving tools', () => {
  test('parameters that are not an object JSON Schema are a 400 naming them', async () => {
    const tenant = await createTenant()
    const res = await call((await import('@/app/api/agents/route')).POST, '/api/agents', {
      method: 'POST',
      headers: tenant.headers,
      body: { name: 'A', tools: [{ ...orderTool(), parameters: { type: 'string' } }] },
    })
    expect(res.status).toBe(400)
    expect(JSON.stringify(res.json.error.details)).toContain('parameters')
  })

  test('two tools with one name, or a masked header with nothing stored, are 400s', async () => {
    const tenant = await createTenant()
    const { POST } = await import('@/app/api/agents/route')
    const twice = await call(POST, '/api/agents', { method: 'POST', headers: tenant.headers, body: { name: 'A', tools: [orderTool(), orderTool()] } })
    const masked = await call(POST, '/api/agents', { method: 'POST', headers: tenant.headers, body: { name: 'A', tools: [{ ...orderTool(), headers: { 'X-Api-Key': '********' } }] } })
    expect(twice.status).toBe(400)
    expect(masked.status).toBe(400)
  })
})
