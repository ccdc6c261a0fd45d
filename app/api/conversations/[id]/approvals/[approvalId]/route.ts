import { endpoint, endpoints } from '@/lib/api/endpoint'
import { decideApproval } from '@/lib/agents/approval-decision'
import { ApprovalDecided, ApprovalDecisionBody } from '@/lib/domain/approvals'
import { operatorOf } from '@/lib/support'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/conversations/{id}/approvals/{approvalId}', {
  // issue 25: approve runs the tool, deny does not; the model is told and its answer is appended to the conversation
  POST: endpoint({
    summary: "Approve or deny a waiting tool call: the agent's answer then continues in the conversation",
    description: 'Approving makes the call and gives the model its result; denying tells the model it was refused. Either way the answer the model then writes is appended to the conversation (the visitor reads it there) and returned. A decided approval cannot be decided again (400).',
    access: { scope: 'conversations:write' },
    body: ApprovalDecisionBody,
    response: ApprovalDecided,
    handler: async ({ ctx, params, body }) => decideApproval(ctx, params.id, params.approvalId, body, await operatorOf(ctx)),
  }),
})
