// The service as an MCP server (issue 25): the official SDK client, over the Streamable HTTP transport, against
// POST /api/mcp's route handler, as Claude Desktop, Cursor or the MCP Inspector would use it.
import { afterEach, describe, expect, test } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import * as health from '@/app/api/health/route'
import { createAgentVia, seedDatastore, useFakeModel } from '../helpers/agents'
import { call, expectErrorBody } from '../helpers/http'
import { connectMcpClient } from '../helpers/mcp'
import { createTenant } from '../helpers/tenants'

const model = useFakeModel()
const KETTLE = [{ text: 'The Aurora kettle carries a warranty of two years from the date of purchase.', name: 'warranty.md' }]

let client: Client | undefined
afterEach(async () => {
  await client?.close()
  client = undefined
})

const textOf = (result: any) => result.content.map((c: any) => c.text).join('\n')

describe('the MCP server', () => {
  test('lists its four tools, each with a description and an object input schema', async () => {
    const tenant = await createTenant()
    client = await connectMcpClient(tenant.headers)

    const { tools } = await client.listTools()

    expect(tools.map(t => t.name).sort()).toEqual(['ask_agent', 'list_agents', 'list_datastores', 'search_datastore'])
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(20)
      expect(tool.inputSchema.type).toBe('object')
    }
    const search = tools.find(t => t.name === 'search_datastore')!
    expect(search.inputSchema.required).toEqual(expect.arrayContaining(['datastoreId', 'query']))
    expect(Object.keys(search.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['topK', 'filters']))
    expect(search.description).toContain('POST /api/datastores/{id}/query')
    const ask = tools.find(t => t.name === 'ask_agent')!
    expect(Object.keys(ask.inputSchema.properties ?? {}).sort()).toEqual(['agentId', 'conversationId', 'query'])
  })

  test('list_datastores names the datastore', async () => {
    const tenant = await createTenant()
    const { datastoreId } = await seedDatastore(tenant, KETTLE)
    client = await connectMcpClient(tenant.headers)

    const result: any = await client.callTool({ name: 'list_datastores', arguments: {} })

    expect(result.isError).toBeFalsy()
    expect(result.structuredContent.datastores).toEqual([expect.objectContaining({ id: datastoreId, name: 'Docs' })])
    expect(textOf(result)).toContain(datastoreId)
  })

  test('search_datastore returns the fragment', async () => {
    const tenant = await createTenant()
    const { datastoreId } = await seedDatastore(tenant, KETTLE)
    client = await connectMcpClient(tenant.headers)

    const result: any = await client.callTool({ name: 'search_datastore', arguments: { datastoreId, query: 'kettle warranty', topK: 3 } })

    expect(result.isError).toBeFalsy()
    expect(result.structuredContent.fragments[0]).toMatchObject({ text: KETTLE[0].text, source: 'warranty.md' })
    expect(textOf(result)).toContain('warranty of two years')
  })

  test('ask_agent answers with retrieval', async () => {
    const tenant = await createTenant()
    const { datastoreId } = await seedDatastore(tenant, KETTLE)
    // minScore 0: the default floor judges real embeddings; the fake model's hashed ones score low (docs/benchmarks.md)
    const agent = await createAgentVia(tenant, { datastoreIds: [datastoreId], minScore: 0 })
    model.fake.setBehaviour({ answerFromContext: true, delayMs: 0 })
    client = await connectMcpClient(tenant.headers)

    const result: any = await client.callTool({ name: 'ask_agent', arguments: { agentId: agent.id, query: 'How long is the kettle warranty?' } })

    expect(result.isError).toBeFalsy()
    expect(result.structuredContent.answer).toContain('warranty of two years')
    expect(result.structuredContent.sources[0].source).toBe('warranty.md')
    expect(result.structuredContent.conversationId).toEqual(expect.any(String))
  })

  test('list_agents lists only the key’s organization’s agents', async () => {
    const tenant = await createTenant()
    const other = await createTenant()
    const mine = await createAgentVia(tenant, { name: 'Mine' })
    await createAgentVia(other, { name: 'Theirs', visibility: 'public' })
    client = await connectMcpClient(tenant.headers)

    const result: any = await client.callTool({ name: 'list_agents', arguments: {} })

    expect(result.structuredContent.agents.map((a: any) => a.id)).toEqual([mine.id])
  })

  test('a search without a query is a tool error, and the service stays healthy', async () => {
    const tenant = await createTenant()
    const { datastoreId } = await seedDatastore(tenant, KETTLE)
    client = await connectMcpClient(tenant.headers)

    const result: any = await client.callTool({ name: 'search_datastore', arguments: { datastoreId } })

    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/query/)
    expect((await call(health.GET, '/api/health')).status).toBe(200)
    expect((await client.callTool({ name: 'list_datastores', arguments: {} })).isError).toBeFalsy()
  })

  test('an unknown datastore, or another organization’s, is a tool error', async () => {
    const tenant = await createTenant()
    const other = await createTenant()
    const { datastoreId: theirs } = await seedDatastore(other, KETTLE)
    client = await connectMcpClient(tenant.headers)

    for (const datastoreId of ['cm_no_such_datastore', theirs]) {
      const result: any = await client.callTool({ name: 'search_datastore', arguments: { datastoreId, query: 'kettle' } })
      expect(result.isError).toBe(true)
      expect(textOf(result)).toContain('not_found')
    }
  })

  test('asking another organization’s public agent is a tool error', async () => {
    const tenant = await createTenant()
    const other = await createTenant()
    const theirs = await createAgentVia(other, { visibility: 'public' })
    client = await connectMcpClient(tenant.headers)

    const result: any = await client.callTool({ name: 'ask_agent', arguments: { agentId: theirs.id, query: 'Hello?' } })

    expect(result.isError).toBe(true)
    expect(model.fake.chatRequests()).toHaveLength(0)
  })

  test('without a key the client is refused with 401', async () => {
    await expect(connectMcpClient({})).rejects.toMatchObject({ code: 401, message: expect.stringContaining('unauthorized') })
  })

  test('with an unknown key the endpoint answers the JSON 401', async () => {
    const res = await call((await import('@/app/api/mcp/route')).POST, '/api/mcp', {
      method: 'POST',
      headers: { authorization: 'Bearer nope', accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    })
    expect(res.status).toBe(401)
    expectErrorBody(res.json, 'unauthorized')
  })

  test('a body that is not a JSON-RPC message is the API’s 400', async () => {
    const tenant = await createTenant()
    const { POST } = await import('@/app/api/mcp/route')
    const res = await call(POST, '/api/mcp', { method: 'POST', headers: tenant.headers, body: { hello: 'world' } })
    expect(res.status).toBe(400)
    expectErrorBody(res.json, 'invalid_request')
  })

  test('GET, for a server-initiated stream, is a 405: the server is stateless', async () => {
    const tenant = await createTenant()
    const { GET } = await import('@/app/api/mcp/route')
    const res = await call(GET, '/api/mcp', { headers: { ...tenant.headers, accept: 'text/event-stream' } })
    expect(res.status).toBe(405)
  })
})
