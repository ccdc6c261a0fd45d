import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import * as mcp from '@/app/api/mcp/route'

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>
const HANDLERS: Record<string, Handler> = { GET: mcp.GET, POST: mcp.POST, DELETE: mcp.DELETE, PUT: mcp.PUT, PATCH: mcp.PATCH }

/** The route handler of /api/mcp as a fetch: what Next does with the request, without a server process. */
export async function fetchMcpRoute(url: string | URL, init?: RequestInit): Promise<Response> {
  const req = new Request(url, init)
  return HANDLERS[req.method](req, { params: Promise.resolve({}) })
}

/** The official SDK client, connected to /api/mcp with the given headers (a Bearer key, or none). */
export async function connectMcpClient(headers: Record<string, string>, fetch = fetchMcpRoute): Promise<Client> {
  const client = new Client({ name: 'test-assistant', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL('http://localhost/api/mcp'), { requestInit: { headers }, fetch })
  await client.connect(transport)
  return client
}
