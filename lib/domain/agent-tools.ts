// An agent's tools as the API answers them (issue 25; lib/agents/tools holds the kinds' rules), and the record of a
// tool call stored with an answer. Header values are secrets: the API answers them masked, never in clear.
import { z } from 'zod'

/** What an API response shows in place of a header's value; sent back on a PATCH, it keeps the stored value. */
export const MASKED_SECRET = '********'

export const HTTP_TOOL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

const MaskedHeaders = z.record(z.string(), z.literal(MASKED_SECRET)).describe(`Header names; their values are secrets, answered as "${MASKED_SECRET}"`)

export const HttpToolResource = z
  .strictObject({
    type: z.literal('http'),
    name: z.string(),
    description: z.string(),
    method: z.enum(HTTP_TOOL_METHODS),
    url: z.string().describe('A template: {placeholders} are filled, URL-encoded, from the arguments'),
    headers: MaskedHeaders,
    parameters: z.record(z.string(), z.unknown()).describe('The JSON Schema (an object) of the arguments the model gives'),
    requiresApproval: z.boolean(),
  })
  .meta({ id: 'HttpTool' })
export type HttpToolResource = z.infer<typeof HttpToolResource>

export const McpToolResource = z
  .strictObject({
    type: z.literal('mcp'),
    name: z.string(),
    url: z.string().describe('An MCP server over Streamable HTTP'),
    headers: MaskedHeaders,
    allowedTools: z.array(z.string()).nullable().describe("The server's tools offered to the model; null: all"),
    tools: z.array(z.strictObject({ name: z.string(), description: z.string() })).describe("The server's tools as last listed (when saved, or refreshed)"),
    listedAt: z.string().nullable().describe('When the tools were last listed'),
    listError: z.string().nullable().describe('Why the server could not be listed when saved (each answer then lists it again until a refresh succeeds)'),
  })
  .meta({ id: 'McpTool' })
export type McpToolResource = z.infer<typeof McpToolResource>

// The built-in actions (issues 23, 25): the agent asks for a person, resolves the conversation, keeps a lead
export const RequestHumanToolResource = z.strictObject({ type: z.literal('request_human') }).meta({ id: 'RequestHumanTool' })
export const MarkAsResolvedToolResource = z.strictObject({ type: z.literal('mark_as_resolved') }).meta({ id: 'MarkAsResolvedTool' })
export const LeadCaptureToolResource = z.strictObject({ type: z.literal('lead_capture') }).meta({ id: 'LeadCaptureTool' })
export type BuiltinToolResource = z.infer<typeof RequestHumanToolResource | typeof MarkAsResolvedToolResource | typeof LeadCaptureToolResource>

export const AgentToolResource = z.discriminatedUnion('type', [HttpToolResource, McpToolResource, RequestHumanToolResource, MarkAsResolvedToolResource, LeadCaptureToolResource])
export type AgentToolResource = z.infer<typeof AgentToolResource>

/** One tool call made while answering, as stored with the answer. */
export const ToolCallRecord = z
  .strictObject({
    id: z.string(),
    tool: z.string().describe('The name the model called'),
    kind: z.enum(['http', 'mcp', 'builtin']),
    arguments: z.unknown(),
    ok: z.boolean(),
    result: z.string().optional().describe('What the model was given (truncated)'),
    error: z.string().optional(),
    durationMs: z.number(),
  })
  .meta({ id: 'ToolCall' })
export type ToolCallRecord = z.infer<typeof ToolCallRecord>
