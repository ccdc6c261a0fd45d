// Calls of an agent's tools that wait for an operator (issue 25, an HTTP tool's `requiresApproval`; Chaindesk's
// approvals): the resource the inbox lists, and the decision an operator sends.
import { z } from 'zod'

export const APPROVAL_STATUSES = ['pending', 'approved', 'denied'] as const
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number]

export const ToolApprovalResource = z
  .strictObject({
    id: z.string(),
    conversationId: z.string(),
    agentId: z.string(),
    messageId: z.string().nullable().describe('The answer that told the visitor the action waits'),
    tool: z.string().describe('The name the model called'),
    arguments: z.record(z.string(), z.unknown()),
    status: z.enum(APPROVAL_STATUSES),
    decidedByName: z.string().nullable(),
    decidedAt: z.string().nullable(),
    result: z.string().nullable().describe("What the tool answered once approved (or the error), or the refusal the model was told"),
    createdAt: z.string(),
  })
  .meta({ id: 'ToolApproval' })
export type ToolApprovalResource = z.infer<typeof ToolApprovalResource>

export const ToolApprovalList = z.strictObject({ items: z.array(ToolApprovalResource) }).meta({ id: 'ToolApprovalList' })
export type ToolApprovalList = z.infer<typeof ToolApprovalList>

export const ApprovalDecisionBody = z.object({ decision: z.enum(['approve', 'deny']) })
export type ApprovalDecision = z.infer<typeof ApprovalDecisionBody>

/** The decision and the answer the agent then wrote (appended to the conversation: the visitor reads it there). */
export const ApprovalDecided = z
  .strictObject({
    approval: ToolApprovalResource,
    answer: z.strictObject({ messageId: z.string().nullable(), text: z.string(), error: z.string().nullable() }),
  })
  .meta({ id: 'ApprovalDecided' })
export type ApprovalDecided = z.infer<typeof ApprovalDecided>
