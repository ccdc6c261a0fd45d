import { z } from 'zod'
import { HTTP_TOOL_METHODS } from '@/lib/domain/agent-tools'
import { ParametersSchema } from './json-schema'
import { toolNameRule } from './kind'

// The bodies that configure an agent's tools (issue 25), shared by the API (lib/agents/agent-schemas.ts) and the
// dashboard's form, which checks them in the browser: nothing here reaches the network or the database.

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/
const FORBIDDEN = new Set(['host', 'content-length', 'transfer-encoding', 'connection'])

export const HeadersBody = z
  .record(
    z.string().regex(HEADER_NAME, 'not a header name').refine(n => !FORBIDDEN.has(n.toLowerCase()), 'this header is set by the service'),
    z.string().max(4000).regex(/^[^\r\n\0]*$/, 'a header value cannot hold a line break'),
  )
  .refine(h => Object.keys(h).length <= 20, 'at most 20 headers')

export const HttpToolBody = z.object({
  type: z.literal('http'),
  name: z.string().regex(toolNameRule.pattern, toolNameRule.message),
  description: z.string().trim().min(1).max(1000),
  method: z.enum(HTTP_TOOL_METHODS).default('GET'),
  url: z
    .string()
    .max(2000)
    .refine(u => /^https?:\/\/[^\s/{}]+/i.test(u), 'an http(s) URL whose host is not a placeholder'),
  headers: HeadersBody.optional(),
  parameters: ParametersSchema.default({ type: 'object', properties: {} }),
  requiresApproval: z.boolean().default(false),
})
export type HttpToolBody = z.infer<typeof HttpToolBody>

export const McpToolBody = z.object({
  type: z.literal('mcp'),
  name: z.string().regex(toolNameRule.pattern, toolNameRule.message),
  url: z.string().max(2000).refine(u => /^https?:\/\/[^\s/]+/i.test(u) && URL.canParse(u), 'an http(s) URL'),
  headers: HeadersBody.optional(),
  allowedTools: z.array(z.string().min(1).max(128)).max(100).nullable().default(null),
})
export type McpToolBody = z.infer<typeof McpToolBody>

/** The built-in actions of the support workflow (issue 23): no settings, the service knows what they do. */
export const BUILTIN_TOOL_TYPES = ['request_human', 'mark_as_resolved', 'lead_capture'] as const
export type BuiltinToolType = (typeof BUILTIN_TOOL_TYPES)[number]

export const RequestHumanToolBody = z.object({ type: z.literal('request_human') })
export const MarkAsResolvedToolBody = z.object({ type: z.literal('mark_as_resolved') })
export const LeadCaptureToolBody = z.object({ type: z.literal('lead_capture') })
export type BuiltinToolBody = { type: BuiltinToolType }

const TOOL_BODIES = [HttpToolBody, McpToolBody, RequestHumanToolBody, MarkAsResolvedToolBody, LeadCaptureToolBody] as const

/** The name a tool is offered under: its own, or a built-in's type. */
export const toolNameOf = (tool: { type: string; name?: string }) => tool.name ?? tool.type

/** The `tools` of an agent's create and PATCH bodies: each kind's body, names unique, each built-in at most once. */
export const AgentToolsBody = z
  .array(z.discriminatedUnion('type', TOOL_BODIES, { error: `type must be one of http, mcp, ${BUILTIN_TOOL_TYPES.join(', ')}` }))
  .max(20)
  .refine(tools => BUILTIN_TOOL_TYPES.every(type => tools.filter(t => t.type === type).length <= 1), 'a built-in tool may be given once')
  .refine(tools => new Set(tools.map(toolNameOf)).size === tools.length, 'tool names must be unique (a built-in takes its type as its name)')
export type AgentToolsBody = z.infer<typeof AgentToolsBody>
