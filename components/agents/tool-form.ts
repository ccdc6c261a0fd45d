import type { z } from 'zod'
import { AgentToolsBody, BUILTIN_TOOL_TYPES, type BuiltinToolType, type HttpToolBody } from '@/lib/agents/tools/schemas'
import { type AgentToolResource, HTTP_TOOL_METHODS, MASKED_SECRET } from '@/lib/domain/agent-tools'

// The agent form's tools (issue 25): each tool as the person edits it (headers one "Name: value" a line, the
// parameters as JSON text), turned into the API's body and checked by the API's own schema before it is sent.
// A stored header's value comes back masked ("********"): sent back as it is, the service keeps the stored secret.

export type HttpMethod = (typeof HTTP_TOOL_METHODS)[number]

export interface ToolFormValue {
  /** A built-in (request_human, …) has no other field: the form shows it as a checkbox (tool-settings.tsx). */
  type: 'http' | 'mcp' | BuiltinToolType
  name: string
  description: string
  method: HttpMethod
  url: string
  /** One header a line, "Name: value". */
  headers: string
  /** The arguments' JSON Schema, as text (HTTP tools). */
  parameters: string
  /** Comma-separated tool names of an MCP server; empty: all. */
  allowedTools: string
  /** HTTP tools: each call waits for an operator's approval in the inbox. */
  requiresApproval: boolean
  /** MCP servers: the tools the service listed when the agent was saved (shown, never sent). */
  listed: { tools: string[]; error: string | null } | null
}

export const isBuiltin = (type: ToolFormValue['type']): type is BuiltinToolType => (BUILTIN_TOOL_TYPES as readonly string[]).includes(type)

const EMPTY_PARAMETERS = JSON.stringify({ type: 'object', properties: {}, required: [] }, null, 2)

export function newTool(type: ToolFormValue['type']): ToolFormValue {
  return { type, name: '', description: '', method: 'GET', url: '', headers: '', parameters: EMPTY_PARAMETERS, allowedTools: '', requiresApproval: false, listed: null }
}

export function toolToFormValue(tool: AgentToolResource): ToolFormValue {
  if (tool.type !== 'http' && tool.type !== 'mcp') return newTool(tool.type)
  const headers = Object.keys(tool.headers).map(name => `${name}: ${MASKED_SECRET}`).join('\n')
  if (tool.type === 'mcp') {
    const listed = tool.listedAt ? { tools: tool.tools.map(t => t.name), error: tool.listError } : null
    return { ...newTool('mcp'), name: tool.name, url: tool.url, headers, allowedTools: (tool.allowedTools ?? []).join(', '), listed }
  }
  return { ...newTool('http'), name: tool.name, description: tool.description, method: tool.method, url: tool.url, headers, parameters: JSON.stringify(tool.parameters, null, 2), requiresApproval: tool.requiresApproval }
}

function headerLines(text: string): Record<string, string> {
  const lines = text.split('\n').map(l => l.trim()).filter(Boolean)
  return Object.fromEntries(lines.map(line => {
    const colon = line.indexOf(':')
    return colon < 0 ? [line, ''] : [line.slice(0, colon).trim(), line.slice(colon + 1).trim()]
  }))
}

function parametersOf(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return 'not JSON'
  }
}

/** The API's `tools` for the form's values. */
export function toToolBodies(tools: ToolFormValue[]) {
  return tools.map(t => {
    if (isBuiltin(t.type)) return { type: t.type }
    const common = { name: t.name.trim(), url: t.url.trim(), headers: headerLines(t.headers) }
    if (t.type === 'mcp') {
      const allowed = t.allowedTools.split(',').map(s => s.trim()).filter(Boolean)
      return { type: 'mcp' as const, ...common, allowedTools: allowed.length ? allowed : null }
    }
    return { type: 'http' as const, ...common, description: t.description.trim(), method: t.method, parameters: parametersOf(t.parameters) as z.input<typeof HttpToolBody>['parameters'], requiresApproval: t.requiresApproval }
  })
}

/** The first problem of the tools, naming the tool and its field; null when the API would accept them. */
export function toolsError(tools: ToolFormValue[]): string | null {
  const parsed = AgentToolsBody.safeParse(toToolBodies(tools))
  if (parsed.success) return null
  const issue = parsed.error.issues[0]
  const [index, field] = issue.path
  if (typeof index !== 'number') return issue.message
  const tool = tools[index]
  const label = tool?.name.trim() || (tool && isBuiltin(tool.type) ? tool.type : `Tool ${index + 1}`)
  return `${label}: ${field !== undefined ? `${String(field)}: ` : ''}${issue.message}`
}
