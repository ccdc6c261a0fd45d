// The MCP server and scoped API keys (issues 25 and 24, DESIGN.md §10): a key sees in tools/list only the tools its
// scopes allow, calling another is a tool error, and its datastore and agent lists hold inside the tools too. With the
// official SDK client, as an AI assistant connects.
import { afterEach, describe, expect, test } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import * as apiKeys from '@/app/api/api-keys/route'
import { createAgentVia, seedDatastore, useFakeModel } from '../helpers/agents'
import { call } from '../helpers/http'
import { connectMcpClient } from '../helpers/mcp'
import { createTenant, type TestTenant } from '../helpers/tenants'

const model = useFakeModel()
const KETTLE = [{ text: 'The Aurora kettle carries a warranty of two years from the date of purchase.', name: 'warranty.md' }]

let client: Client | undefined
afterEach(async () => {
  await client?.close()
  client = undefined
})

async function keyWith(tenant: TestTenant, limits: Record<string, unknown>): Promise<Record<string, string>> {
  const res = await call(apiKeys.POST, '/api/api-keys', { method: 'POST', headers: tenant.headers, body: { name: 'assistant', ...limits } })
  expect(res.status, res.text).toBe(201)
  return { authorization: `Bearer ${res.json.secret}` }
}

const textOf = (result: any) => result.content.map((c: any) => c.text).join('\n')

describe('a scoped key on the MCP server', () => {
  test('with only datastores:read, lists list_datastores and search_datastore, not the agent tools', async () => {
    const tenant = await createTenant()
    client = await connectMcpClient(await keyWith(tenant, { scopes: ['datastores:read'] }))
    const { tools } = await client.listTools()
    expect(tools.map(t => t.name).sort()).toEqual(['list_datastores', 'search_datastore'])
  })

  test('calling a tool its scopes do not allow is a tool error, and nothing is asked', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant, {})
    client = await connectMcpClient(await keyWith(tenant, { scopes: ['datastores:read'] }))

    const result: any = await client.callTool({ name: 'ask_agent', arguments: { agentId: agent.id, query: 'Hello?' } })

    expect(result.isError).toBe(true)
    expect(textOf(result)).toContain('not found')
    expect(model.fake.chatRequests()).toHaveLength(0)
  })

  test('with only agents:query, connects and lists ask_agent alone', async () => {
    const tenant = await createTenant()
    client = await connectMcpClient(await keyWith(tenant, { scopes: ['agents:query'] }))
    const { tools } = await client.listTools()
    expect(tools.map(t => t.name)).toEqual(['ask_agent'])
  })

  test("search_datastore with a datastore outside the key's datastoreIds is a tool error \"not found\"; its own is searched", async () => {
    const tenant = await createTenant()
    const mine = await seedDatastore(tenant, KETTLE)
    const other = await seedDatastore(tenant, KETTLE)
    client = await connectMcpClient(await keyWith(tenant, { scopes: ['datastores:read'], datastoreIds: [mine.datastoreId] }))

    const outside: any = await client.callTool({ name: 'search_datastore', arguments: { datastoreId: other.datastoreId, query: 'kettle warranty' } })
    const own: any = await client.callTool({ name: 'search_datastore', arguments: { datastoreId: mine.datastoreId, query: 'kettle warranty' } })
    const listed: any = await client.callTool({ name: 'list_datastores', arguments: {} })

    expect(outside.isError).toBe(true)
    expect(textOf(outside)).toMatch(/not found/i)
    expect(own.isError).toBeFalsy()
    expect(own.structuredContent.fragments[0].text).toBe(KETTLE[0].text)
    expect(listed.structuredContent.datastores.map((d: any) => d.id)).toEqual([mine.datastoreId])
  })

  test("ask_agent with an agent outside the key's agentIds is a tool error \"not found\"", async () => {
    const tenant = await createTenant()
    const mine = await createAgentVia(tenant, {})
    const other = await createAgentVia(tenant, {})
    client = await connectMcpClient(await keyWith(tenant, { scopes: ['agents:read', 'agents:query'], agentIds: [mine.id] }))

    const outside: any = await client.callTool({ name: 'ask_agent', arguments: { agentId: other.id, query: 'Hello?' } })
    const agents: any = await client.callTool({ name: 'list_agents', arguments: {} })

    expect(outside.isError).toBe(true)
    expect(textOf(outside)).toMatch(/not found/i)
    expect(agents.structuredContent.agents.map((a: any) => a.id)).toEqual([mine.id])
  })

  test('a key with none of the tools\' scopes is refused with 403', async () => {
    const tenant = await createTenant()
    await expect(connectMcpClient(await keyWith(tenant, { scopes: ['conversations:read'] }))).rejects.toThrow(/403|scope/)
  })
})
