import { config } from '@/lib/config'
import { getPrisma } from '@/lib/db/client'
import { logger } from '@/lib/logger'
import { APPROVED_CALL_LIMIT_MS, REFUSED, continueAnswer } from './approval-decision'

// A decision is claimed (the approval marked approved or denied) before its call runs, and its result saved after
// (approval-decision.ts): an approved call runs for up to ten minutes inside the operator's request. A process that
// stops in between (a crash, a deploy, a stop past its grace) leaves an approval decided with no result and no answer
// after it: the visitor's chat says it awaits an approval forever, and the operator cannot decide again. Such an
// approval is settled here: the model is told the outcome is unknown (the call may have been made: it is never run a
// second time) and the answer continues as after any decision.

export const INTERRUPTED =
  'Error: the service stopped while this action ran, so whether it was done is unknown. Tell the customer a teammate will check it, without retrying it.'

/** Longer than a decision still in progress takes: the call's limit, then the model's continuation (two of its silence limits). */
export function decisionLongestMs(): number {
  return APPROVED_CALL_LIMIT_MS + 2 * config().AGENT_MODEL_TIMEOUT_SECONDS * 1000
}

/**
 * Settles the approvals decided before `decidedBefore` whose decision never saved a result: the result is the
 * refusal (a denied call never runs) or INTERRUPTED, and the answer continues. Returns how many were settled.
 */
export async function settleInterruptedApprovals(decidedBefore: Date, batch = 20): Promise<number> {
  const prisma = await getPrisma()
  const orphans = await prisma.toolApproval.findMany({
    where: { status: { in: ['approved', 'denied'] }, result: null, decidedAt: { lt: decidedBefore } },
    orderBy: { decidedAt: 'asc' },
    take: batch,
  })
  let settled = 0
  for (const approval of orphans) {
    const result = approval.status === 'denied' ? REFUSED : INTERRUPTED
    // one settler per approval, whichever process gets here first
    const claimed = await prisma.toolApproval.updateMany({ where: { id: approval.id, result: null }, data: { result } })
    if (claimed.count === 0) continue
    logger.warn('a decided approval was interrupted before its result was saved: the answer continues', {
      approvalId: approval.id,
      conversationId: approval.conversationId,
      tool: approval.toolName,
      status: approval.status,
    })
    const answer = await continueAnswer({ ...approval, result }, result)
    if (answer.error) logger.error('the answer after an interrupted approval failed', { approvalId: approval.id, error: answer.error })
    settled++
  }
  return settled
}
