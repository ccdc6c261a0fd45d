import type { ModelMessage } from 'ai'
import { getDatabase, getPrisma } from '@/lib/db/client'
import type { ToolApprovalList, ToolApprovalResource } from '@/lib/domain/approvals'
import type { AnswerEvent } from '@/lib/domain/answer-events'
import type { AgentModelName } from '@/lib/domain/models'
import { seesAgent, type TenantContext } from '@/lib/domain/tenant'
import { NotFound } from '@/lib/http/errors'
import type { ToolApproval } from '@/lib/generated/prisma/client'
import type { PreparedQuery } from './prepare-query'
import type { PendingCall } from './tools/tool-run'

// Calls of an agent's tools that wait for an operator (issue 25, `requiresApproval`; Chaindesk's approvals). When the
// model calls such a tool, the run stops after that step (tools/tool-run.ts), the visitor is told the action waits
// (the answer, JSON or streamed), and each call is recorded here with the model's messages so far, from which the
// answer continues once an operator decides (approval-decision.ts).

/** The model's messages up to the calls, and its settings: what the decision continues from. */
export interface Continuation {
  system: string
  messages: ModelMessage[]
  settings: PreparedQuery['settings']
  /** The model name the answer began on (absent in approvals recorded before it was kept: the agent's then). */
  modelName?: AgentModelName
}

/** What the visitor reads while the calls wait. */
export function approvalNotice(pending: PendingCall[]): string {
  const names = [...new Set(pending.map(p => p.tool))].join(', ')
  return `This action (${names}) needs an operator's approval before it runs. You will get the answer in this conversation once it is decided.`
}

/** Records the waiting calls of an answer; `settled` holds the stored answer that told the visitor (its messageId). */
export async function recordApprovals(query: PreparedQuery, pending: PendingCall[], messages: ModelMessage[], settled: AnswerEvent[]): Promise<void> {
  const stored = settled.find(e => e.type === 'endpoint_response')
  const continuation: Continuation = { system: query.prompt.system, messages, settings: query.settings, modelName: query.model.name }
  const prisma = await getPrisma()
  await prisma.toolApproval.createMany({
    data: pending.map(call => ({
      organizationId: query.organizationId,
      conversationId: query.conversationId,
      agentId: query.agentId,
      messageId: stored?.type === 'endpoint_response' ? stored.answer.messageId : null,
      toolCallId: call.toolCallId,
      toolName: call.tool,
      arguments: call.arguments as object,
      continuation: continuation as unknown as object,
    })),
  })
}

export function toApprovalResource(a: ToolApproval): ToolApprovalResource {
  return {
    id: a.id,
    conversationId: a.conversationId,
    agentId: a.agentId,
    messageId: a.messageId,
    tool: a.toolName,
    arguments: (a.arguments ?? {}) as Record<string, unknown>,
    status: a.status,
    decidedByName: a.decidedByName,
    decidedAt: a.decidedAt?.toISOString() ?? null,
    result: a.result,
    createdAt: a.createdAt.toISOString(),
  }
}

/** The approvals of a conversation of the caller's organization, oldest first; another organization's is 404. */
export async function listApprovals(ctx: TenantContext, conversationId: string): Promise<ToolApprovalList> {
  const prisma = await getPrisma()
  const conversation = await prisma.conversation.findFirst({ where: { id: conversationId, organizationId: ctx.organizationId }, select: { agentId: true } })
  if (!conversation || !seesAgent(ctx, conversation.agentId)) throw new NotFound('Conversation')
  const rows = await prisma.toolApproval.findMany({ where: { conversationId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] })
  return { items: rows.map(toApprovalResource) }
}

/** How long a decided approval without its answer still counts as awaited: past the tool's 10 minutes and the model's run. */
const ANSWER_AFTER_DECISION_MS = 15 * 60_000

/**
 * Whether the conversation awaits an answer from an approval: a call still pending, or one decided whose answer is
 * not stored yet (the decision is claimed before the tool runs and the model continues; a chat that stopped looking
 * at the claim would miss the answer). A decision that never got its answer (a crash) stops counting after a while.
 */
export async function awaitsApproval(conversationId: string): Promise<boolean> {
  const { sql } = await getDatabase()
  const rows = await sql.query(
    `SELECT 1 FROM "ToolApproval" a
     WHERE a."conversationId" = $1 AND (a.status = 'pending' OR (a."decidedAt" > $2::timestamp AND NOT EXISTS (
       SELECT 1 FROM "Message" m WHERE m."conversationId" = a."conversationId" AND m.role = 'assistant' AND m."createdAt" >= a."decidedAt")))
     LIMIT 1`,
    [conversationId, new Date(Date.now() - ANSWER_AFTER_DECISION_MS).toISOString()],
  )
  return rows.length > 0
}
