import type { ModelMessage } from 'ai'
import type { ToolApproval } from '@/lib/generated/prisma/client'
import { getPrisma } from '@/lib/db/client'
import type { ApprovalDecided, ApprovalDecision } from '@/lib/domain/approvals'
import { AGENT_MODEL_NAMES, type AgentModelName } from '@/lib/domain/models'
import { seesAgent, type TenantContext } from '@/lib/domain/tenant'
import { InvalidRequest, NotFound } from '@/lib/http/errors'
import { continuedAgentQuery } from '@/lib/usage/agent-queries'
import type { SupportActor } from '@/lib/support'
import { toApprovalResource, type Continuation } from './approvals'
import { chatModel } from './model-catalogue'
import { organizationModelMap } from './organization-models'
import { collectAnswer, runModel } from './model-run'
import type { PreparedQuery } from './prepare-query'
import { storedTools } from './tools'
import { startToolRun } from './tools/tool-run'

// An operator's decision on a waiting tool call (approvals.ts): approved, the call is made; denied, it is not. Either
// way the model is told (the call's result, or the refusal) and continues the answer from where it stopped; that
// answer is appended to the conversation, where the visitor reads it (GET /api/conversations/{id}).

/** The longest an approved call may run: an operator's decision waits for it. */
export const APPROVED_CALL_LIMIT_MS = 10 * 60_000

export const REFUSED = 'The operator refused this action: it was not run. Tell the customer it cannot be done, without retrying it.'

/** Claims the pending approval for this decision; one already decided (or being decided) is a 400. */
async function claim(ctx: TenantContext, conversationId: string, approvalId: string, decision: ApprovalDecision, actor: SupportActor) {
  const prisma = await getPrisma()
  const found = await prisma.toolApproval.findFirst({ where: { id: approvalId, conversationId, organizationId: ctx.organizationId } })
  if (!found || !seesAgent(ctx, found.agentId)) throw new NotFound('Approval')
  const status = decision.decision === 'approve' ? 'approved' : 'denied'
  const claimed = await prisma.toolApproval.updateMany({
    where: { id: approvalId, status: 'pending' },
    data: { status, decidedById: actor.id, decidedByName: actor.name, decidedAt: new Date() },
  })
  if (claimed.count === 0) throw new InvalidRequest(`This approval was already decided (${found.status})`, { status: found.status })
  return found
}

/** What the model reads for the call: the tool's answer once approved (or its error), else the refusal. */
async function resultOf(approved: boolean, call: { organizationId: string; agentId: string; conversationId: string; toolName: string; arguments: unknown }, tools: unknown): Promise<string> {
  if (!approved) return REFUSED
  const run = await startToolRun(storedTools(tools), { organizationId: call.organizationId, agentId: call.agentId, conversationId: call.conversationId, signal: new AbortController().signal })
  try {
    const offer = run.offers.find(o => o.name === call.toolName)
    if (!offer) return `Error: the tool ${call.toolName} is no longer one of the agent's tools: it was not run.`
    return await offer.call((call.arguments ?? {}) as Record<string, unknown>, AbortSignal.timeout(APPROVED_CALL_LIMIT_MS))
  } catch (error) {
    return `Error: the tool failed: ${error instanceof Error ? error.message : String(error)}`
  } finally {
    await run.close()
  }
}

/** The messages with the waiting call's placeholder result replaced by `result`. */
function withResult(messages: ModelMessage[], toolCallId: string, result: string): ModelMessage[] {
  return messages.map(m => {
    if (m.role !== 'tool') return m
    return { ...m, content: m.content.map(part => (part.type === 'tool-result' && part.toolCallId === toolCallId ? { ...part, output: { type: 'text' as const, value: result } } : part)) }
  })
}

/** The stored name when it is still a model name (a continuation is JSON written by an earlier version), else the agent's. */
function continuedModelName(continuation: Continuation, agentModel: AgentModelName): AgentModelName {
  const stored = continuation.modelName
  return stored && (AGENT_MODEL_NAMES as readonly string[]).includes(stored) ? stored : agentModel
}

export async function decideApproval(ctx: TenantContext, conversationId: string, approvalId: string, decision: ApprovalDecision, actor: SupportActor): Promise<ApprovalDecided> {
  const approval = await claim(ctx, conversationId, approvalId, decision, actor)
  const prisma = await getPrisma()
  const agent = await prisma.agent.findUniqueOrThrow({ where: { id: approval.agentId } })
  const result = await resultOf(decision.decision === 'approve', approval, agent.tools)
  const decided = await prisma.toolApproval.update({ where: { id: approval.id }, data: { result } })
  return { approval: toApprovalResource(decided), answer: await continueAnswer(decided, result) }
}

/**
 * The answer continued from where it stopped, the model reading `result` for the waiting call, and appended to the
 * conversation. A failure is stored in the conversation as any failed answer is, and returned as the answer's error.
 */
export async function continueAnswer(approval: ToolApproval, result: string): Promise<ApprovalDecided['answer']> {
  const prisma = await getPrisma()
  const agent = await prisma.agent.findUniqueOrThrow({ where: { id: approval.agentId } })
  const continuation = approval.continuation as unknown as Continuation
  const conversation = await prisma.conversation.findUniqueOrThrow({ where: { id: approval.conversationId }, select: { visitorId: true } })
  const query: PreparedQuery = {
    organizationId: approval.organizationId,
    agentId: agent.id,
    tools: storedTools(agent.tools),
    // on the model name the answer began on, through the organization's map as any answer (issue 27)
    model: chatModel(continuedModelName(continuation, agent.modelName), await organizationModelMap(approval.organizationId)),
    prompt: { system: continuation.system, messages: withResult(continuation.messages, approval.toolCallId, result) },
    settings: continuation.settings,
    reservation: continuedAgentQuery(approval.organizationId),
    conversationId: approval.conversationId,
    visitorId: conversation.visitorId ?? '',
    sources: [],
    showToolCalls: true,
  }
  try {
    const answer = await collectAnswer(runModel(query, undefined, 'at-the-end'))
    return { messageId: answer.messageId, text: answer.answer, error: null }
  } catch (error) {
    return { messageId: null, text: '', error: error instanceof Error ? error.message : String(error) }
  }
}
