import type { AgentToolResource } from '@/lib/domain/agent-tools'
import { logger } from '@/lib/logger'
import type { StoredBuiltinTool } from './builtin'
import { httpTool, type StoredHttpTool } from './http-tool'
import type { OfferedTool, ToolContext, ToolKind } from './kind'
import { leadCaptureTool } from './lead-capture-tool'
import { markAsResolvedTool } from './mark-resolved-tool'
import { mcpTool, type StoredMcpTool } from './mcp-tool'
import { requestHumanTool } from './request-human-tool'
import type { AgentToolsBody } from './schemas'

// The kinds of agent tools (issue 25), one module each (./kind.ts says what a kind is): HTTP APIs, MCP servers and
// the built-in actions of the support workflow. Adding a kind is one module and one line in KINDS.

export type StoredTool = StoredHttpTool | StoredMcpTool | StoredBuiltinTool

type AnyKind = ToolKind<string, unknown, { type: string; name: string }, AgentToolResource>

const KINDS: Record<StoredTool['type'], AnyKind> = {
  http: httpTool as unknown as AnyKind,
  mcp: mcpTool as unknown as AnyKind,
  request_human: requestHumanTool as unknown as AnyKind,
  mark_as_resolved: markAsResolvedTool as unknown as AnyKind,
  lead_capture: leadCaptureTool as unknown as AnyKind,
}

const kindOf = (type: StoredTool['type']) => KINDS[type]

/** The tools to store; a tool named as a stored one of its kind keeps that one's secrets where the body masks them. */
export function storeTools(bodies: AgentToolsBody, previous: StoredTool[] = []): StoredTool[] {
  return bodies.map(body => {
    const name = 'name' in body ? body.name : body.type
    const before = previous.find(p => p.name === name && p.type === body.type)
    return kindOf(body.type).store(body, before) as StoredTool
  })
}

/** The tools as saved: what each kind adds from the network (an MCP server's listed tools). */
export async function prepareTools(stored: StoredTool[], context: { organizationId: string }): Promise<StoredTool[]> {
  return Promise.all(stored.map(tool => kindOf(tool.type).prepare?.(tool, context) ?? tool)) as Promise<StoredTool[]>
}

/** The stored tools of an agent row (a JSON column). */
export function storedTools(column: unknown): StoredTool[] {
  return Array.isArray(column) ? (column as StoredTool[]).filter(t => t && Object.hasOwn(KINDS, t.type)) : []
}

export function toolResources(stored: StoredTool[]): AgentToolResource[] {
  return stored.map(tool => kindOf(tool.type).resource(tool))
}

/** Every function the agent's tools offer for one answer, under unique names. */
export async function offeredTools(stored: StoredTool[], context: ToolContext): Promise<OfferedTool[]> {
  const offers = await Promise.all(stored.map(tool => kindOf(tool.type).offer(tool, context)))
  const seen = new Set<string>()
  return offers.flat().filter(offer => {
    if (seen.has(offer.name)) {
      logger.warn('an agent tool name is offered twice: the second is left out', { agentId: context.agentId, tool: offer.name })
      return false
    }
    seen.add(offer.name)
    return true
  })
}

export type { OfferedTool, ToolContext } from './kind'
