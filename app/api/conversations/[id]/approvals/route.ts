import { endpoint, endpoints } from '@/lib/api/endpoint'
import { listApprovals } from '@/lib/agents/approvals'
import { ToolApprovalList } from '@/lib/domain/approvals'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/conversations/{id}/approvals', {
  // issue 25: the calls of tools with requiresApproval made in this conversation, pending or decided
  GET: endpoint({
    summary: "The conversation's tool calls that wait for (or got) an operator's approval, oldest first",
    access: { scope: 'conversations:read' },
    response: ToolApprovalList,
    handler: ({ ctx, params }) => listApprovals(ctx, params.id),
  }),
})
