import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { expect, test } from '@playwright/test'
import { auth, createDatastore, unique, upsertText, waitUntilSynched } from './support/dashboard'

// The service as an MCP server (issue 25) over real HTTP: the official SDK client against the built server, as an
// AI assistant configured from the "Connect an assistant" page would reach it.

async function connect(baseURL: string, headers: Record<string, string>) {
  const client = new Client({ name: 'e2e-assistant', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL('/api/mcp', baseURL), { requestInit: { headers } }))
  return client
}

test('an assistant with a key lists the tools and searches a datastore over HTTP', async ({ request, baseURL }) => {
  const store = await createDatastore(request, unique('MCP docs'))
  await upsertText(request, store.id, [{ name: 'warranty.md', text: 'The Aurora kettle carries a warranty of two years.' }])
  await waitUntilSynched(request, store.id, 1)
  const client = await connect(baseURL!, auth)
  try {
    const { tools } = await client.listTools()
    expect(tools.map(t => t.name).sort()).toEqual(['ask_agent', 'list_agents', 'list_datastores', 'search_datastore'])
    const found: any = await client.callTool({ name: 'search_datastore', arguments: { datastoreId: store.id, query: 'kettle warranty' } })
    expect(found.isError).toBeFalsy()
    expect(found.structuredContent.fragments[0].text).toContain('warranty of two years')
    const missing: any = await client.callTool({ name: 'search_datastore', arguments: { datastoreId: store.id } })
    expect(missing.isError).toBe(true)
  } finally {
    await client.close()
  }
  expect((await request.get('/api/health')).status()).toBe(200)
})

test('without a key the MCP endpoint answers 401, and GET is 405', async ({ request, baseURL }) => {
  await expect(connect(baseURL!, {})).rejects.toMatchObject({ code: 401 })
  const get = await request.get('/api/mcp', { headers: { ...auth, accept: 'text/event-stream' } })
  expect(get.status()).toBe(405)
})
