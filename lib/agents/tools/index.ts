import type { AgentToolResource } from '@/lib/domain/agent-tools'
import { logger } from '@/lib/logger'
import { httpTool, type StoredHttpTool } from './http-tool'
import type { OfferedTool, ToolContext } from './kind'
import { mcpTool, type StoredMcpTool } from './mcp-tool'
import type { AgentToolsBody } from './schemas'

// The kinds of agent tools (issue 25), one module each (./kind.ts says what a kind is). Adding a kind (the built-in
// actions of the support workflow) is one module and one line in each of the lists below.

export type StoredTool = StoredHttpTool | StoredMcpTool

const KINDS = { http: httpTool, mcp: mcpTool } as const

/** The tools to store; a tool named as a stored one of its kind keeps that one's secrets where the body masks them. */
export function storeTools(bodies: AgentToolsBody, previous: StoredTool[] = []): StoredTool[] {
  return bodies.map(body => {
    const before = previous.find(p => p.name === body.name && p.type === body.type)
    if (body.type === 'http') return httpTool.store(body, before as StoredHttpTool | undefined)
    return mcpTool.store(body, before as StoredMcpTool | undefined)
  })
}

/** The stored tools of an agent row (a JSON column). */
export function storedTools(column: unknown): StoredTool[] {
  return Array.isArray(column) ? (column as StoredTool[]).filter(t => t && Object.hasOwn(KINDS, t.type)) : []
}

export function toolResources(stored: StoredTool[]): AgentToolResource[] {
  return stored.map(tool => (tool.type === 'http' ? httpTool.resource(tool) : mcpTool.resource(tool)))
}

/** Every function the agent's tools offer for one answer, under unique names. */
export async function offeredTools(stored: StoredTool[], context: ToolContext): Promise<OfferedTool[]> {
  const offers = await Promise.all(stored.map(tool => (tool.type === 'http' ? httpTool.offer(tool, context) : mcpTool.offer(tool, context))))
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
