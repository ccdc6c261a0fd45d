import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'

// The MCP Streamable HTTP transport over a route handler's Request (DESIGN.md §12). Stateless: a server and a
// transport per request, no session id, so any process behind a load balancer answers any request. Answers are JSON
// (one JSON-RPC response per POST), never a held-open stream: the tools answer once, and GET (a server-initiated
// stream) is refused with 405, as the transport's specification allows.

/** The JSON-RPC answer of the MCP server to one POST whose body the endpoint has already parsed. */
export async function answerMcpRequest(req: Request, body: unknown, server: McpServer): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
  await server.connect(transport)
  try {
    // the answer is JSON whatever the caller accepts, so a caller that did not list both types is served the same
    const headers = new Headers(req.headers)
    headers.set('accept', 'application/json, text/event-stream')
    headers.set('content-type', 'application/json')
    const forwarded = new Request(req.url, { method: 'POST', headers, signal: req.signal })
    return await transport.handleRequest(forwarded, { parsedBody: body })
  } finally {
    await server.close()
  }
}
