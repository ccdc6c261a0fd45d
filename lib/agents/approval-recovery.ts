import { config } from '@/lib/config'
import { getDatabase, getPrisma } from '@/lib/db/client'
import type { ToolApproval } from '@/lib/generated/prisma/client'
import { logger } from '@/lib/logger'
import { APPROVED_CALL_LIMIT_MS, REFUSED, continueAnswer } from './approval-decision'

// A decision is claimed (the approval marked approved or denied) before its call runs, its result saved after, and
// the model's continuation stored after that (approval-decision.ts): an approved call runs for up to ten minutes
// inside the operator's request. A process that stops in between (a crash, a deploy, a stop past its grace) leaves an
// approval decided with no answer after it, with or without its result: the visitor's chat says it awaits an approval
// and no answer comes, and the operator cannot decide again. Such an approval is settled here: without a result, the
// model is told the outcome is unknown (the call may have been made: it is never run a second time); with one, it is
// told that result; and the answer continues as after any decision.

export const INTERRUPTED =
  'Error: the service stopped while this action ran, so whether it was done is unknown. Tell the customer a teammate will check it, without retrying it.'

/** Longer than a decision still in progress takes: the call's limit, then the model's continuation (two of its silence limits). */
export function decisionLongestMs(): number {
  return APPROVED_CALL_LIMIT_MS + 2 * config().AGENT_MODEL_TIMEOUT_SECONDS * 1000
}

// Decisions older than this are history, not interrupted ones (a sweep reads the recent ones only)
const HORIZON_MS = 7 * 24 * 3600_000

/** Decided before `decidedBefore` (and within the horizon), with no answer of the agent at or after the decision. */
async function unansweredDecisions(decidedBefore: Date, batch: number): Promise<ToolApproval[]> {
  const { sql, prisma } = await getDatabase()
  const rows = await sql.query<{ id: string }>(
    `SELECT a.id FROM "ToolApproval" a
     WHERE a.status IN ('approved', 'denied') AND a."decidedAt" < $1::timestamp AND a."decidedAt" > $2::timestamp
       AND NOT EXISTS (SELECT 1 FROM "Message" m WHERE m."conversationId" = a."conversationId" AND m.role = 'assistant' AND m."createdAt" >= a."decidedAt")
     ORDER BY a."decidedAt" LIMIT ${batch}`,
    [decidedBefore.toISOString(), new Date(decidedBefore.getTime() - HORIZON_MS).toISOString()],
  )
  if (rows.length === 0) return []
  return prisma.toolApproval.findMany({ where: { id: { in: rows.map(r => r.id) } }, orderBy: { decidedAt: 'asc' } })
}

/**
 * Settles the approvals decided before `decidedBefore` that have no answer after them: the result is the one saved,
 * else the refusal (a denied call never runs) or INTERRUPTED, and the answer continues. Returns how many were settled.
 */
export async function settleInterruptedApprovals(decidedBefore: Date, batch = 20): Promise<number> {
  const prisma = await getPrisma()
  let settled = 0
  for (const approval of await unansweredDecisions(decidedBefore, batch)) {
    const result = approval.result ?? (approval.status === 'denied' ? REFUSED : INTERRUPTED)
    // one settler per approval, whichever process moves its decision time first (a settler that stops in turn leaves
    // it to the next sweep once the new time is old enough)
    const claimed = await prisma.toolApproval.updateMany({ where: { id: approval.id, decidedAt: approval.decidedAt }, data: { result, decidedAt: new Date() } })
    if (claimed.count === 0) continue
    logger.warn('a decided approval was interrupted before its answer was stored: the answer continues', {
      approvalId: approval.id,
      conversationId: approval.conversationId,
      tool: approval.toolName,
      status: approval.status,
      resultSaved: approval.result !== null,
    })
    const answer = await continueAnswer({ ...approval, result }, result)
    if (answer.error) logger.error('the answer after an interrupted approval failed', { approvalId: approval.id, error: answer.error })
    settled++
  }
  return settled
}
