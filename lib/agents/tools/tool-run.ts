import { dynamicTool, jsonSchema, type ToolSet } from 'ai'
import type { ToolCallRecord } from '@/lib/domain/agent-tools'
import { logger } from '@/lib/logger'
import { inSpan } from '@/lib/tracing/spans'
import { offeredTools, type StoredTool } from './index'
import type { OfferedTool, ToolContext } from './kind'

// The agent's tools for one answer, as the `ai` SDK's tool calling takes them (lib/agents/model-run.ts). Each call
// is recorded (tool, arguments, result or error, duration) for the stored answer and the stream; a call that fails,
// times out or is refused becomes an error result the model reads and answers around, never a failed request. A call
// of a tool that requires approval is not made: it is kept in `pending`, and the run stops after that step
// (lib/agents/approvals records it for an operator and continues the answer once decided).

/** A call waiting for an operator's decision. */
export interface PendingCall {
  toolCallId: string
  tool: string
  arguments: Record<string, unknown>
}

export interface ToolRun {
  tools: ToolSet
  /** What the tools offer, by name (an approved call is made with its `call`). */
  offers: OfferedTool[]
  /** The calls made so far, in the order they finished. */
  calls: ToolCallRecord[]
  /** The calls that wait for an operator: the run stops once there is one. */
  pending: PendingCall[]
  /** Ends what the tools opened (MCP sessions). */
  close: () => Promise<void>
}

/** What the model reads (and the record keeps) for a call that waits for an operator. */
export const AWAITING_APPROVAL = "Waiting for an operator's approval: the action was not run yet."

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

function recorded(offer: OfferedTool, run: Pick<ToolRun, 'calls' | 'pending'>, fallback: AbortSignal) {
  return dynamicTool({
    description: offer.description,
    inputSchema: jsonSchema(offer.inputSchema as Parameters<typeof jsonSchema>[0]),
    execute: async (input, { toolCallId, abortSignal }) => {
      const args = (input ?? {}) as Record<string, unknown>
      const started = performance.now()
      const base = { id: toolCallId, tool: offer.name, kind: offer.kind, arguments: args }
      if (offer.requiresApproval) {
        run.pending.push({ toolCallId, tool: offer.name, arguments: args })
        run.calls.push({ ...base, ok: true, result: AWAITING_APPROVAL, durationMs: 0 })
        return AWAITING_APPROVAL
      }
      try {
        const result = await inSpan('agent.tool_call', { 'agent.tool': offer.name, 'agent.tool_kind': offer.kind }, () => offer.call(args, abortSignal ?? fallback))
        run.calls.push({ ...base, ok: true, result, durationMs: Math.round(performance.now() - started) })
        return result
      } catch (error) {
        run.calls.push({ ...base, ok: false, error: message(error), durationMs: Math.round(performance.now() - started) })
        logger.warn('an agent tool call failed', { tool: offer.name, kind: offer.kind, reason: message(error) })
        return `Error: the tool failed: ${message(error)}`
      }
    },
  })
}

/** The tools of one answer; none when the agent has none (the model is then called without tools). */
export async function startToolRun(stored: StoredTool[], context: Omit<ToolContext, 'defer'>): Promise<ToolRun> {
  const cleanups: (() => Promise<void>)[] = []
  const run = { calls: [] as ToolCallRecord[], pending: [] as PendingCall[] }
  const offers = stored.length ? await offeredTools(stored, { ...context, defer: cleanup => void cleanups.push(cleanup) }) : []
  return {
    ...run,
    tools: Object.fromEntries(offers.map(offer => [offer.name, recorded(offer, run, context.signal)])),
    offers,
    close: async () => {
      await Promise.all(cleanups.map(c => c().catch(error => logger.warn('could not close an agent tool', { reason: message(error) }))))
    },
  }
}
