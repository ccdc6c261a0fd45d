import type { z } from 'zod'
import { AgentToolsBody, type HttpToolBody } from '@/lib/agents/tools/schemas'
import { type AgentToolResource, HTTP_TOOL_METHODS, MASKED_SECRET } from '@/lib/domain/agent-tools'

// The agent form's tools (issue 25): each tool as the person edits it (headers one "Name: value" a line, the
// parameters as JSON text), turned into the API's body and checked by the API's own schema before it is sent.
// A stored header's value comes back masked ("********"): sent back as it is, the service keeps the stored secret.

export type HttpMethod = (typeof HTTP_TOOL_METHODS)[number]

export interface ToolFormValue {
  type: 'http' | 'mcp'
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
}

const EMPTY_PARAMETERS = JSON.stringify({ type: 'object', properties: {}, required: [] }, null, 2)

export function newTool(type: ToolFormValue['type']): ToolFormValue {
  return { type, name: '', description: '', method: 'GET', url: '', headers: '', parameters: EMPTY_PARAMETERS, allowedTools: '' }
}

export function toolToFormValue(tool: AgentToolResource): ToolFormValue {
  const headers = Object.keys(tool.headers).map(name => `${name}: ${MASKED_SECRET}`).join('\n')
  if (tool.type === 'mcp') return { ...newTool('mcp'), name: tool.name, url: tool.url, headers, allowedTools: (tool.allowedTools ?? []).join(', ') }
  return { ...newTool('http'), name: tool.name, description: tool.description, method: tool.method, url: tool.url, headers, parameters: JSON.stringify(tool.parameters, null, 2) }
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
    const common = { name: t.name.trim(), url: t.url.trim(), headers: headerLines(t.headers) }
    if (t.type === 'mcp') {
      const allowed = t.allowedTools.split(',').map(s => s.trim()).filter(Boolean)
      return { type: 'mcp' as const, ...common, allowedTools: allowed.length ? allowed : null }
    }
    return { type: 'http' as const, ...common, description: t.description.trim(), method: t.method, parameters: parametersOf(t.parameters) as z.input<typeof HttpToolBody>['parameters'] }
  })
}

/** The first problem of the tools, naming the tool and its field; null when the API would accept them. */
export function toolsError(tools: ToolFormValue[]): string | null {
  const parsed = AgentToolsBody.safeParse(toToolBodies(tools))
  if (parsed.success) return null
  const issue = parsed.error.issues[0]
  const [index, field] = issue.path
  if (typeof index !== 'number') return issue.message
  const label = tools[index]?.name.trim() || `Tool ${index + 1}`
  return `${label}: ${field !== undefined ? `${String(field)}: ` : ''}${issue.message}`
}
