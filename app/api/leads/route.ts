import { endpoint, endpoints } from '@/lib/api/endpoint'
import { LeadsPage } from '@/lib/domain/support'
import { listLeads } from '@/lib/support'
import { LeadListParams } from '@/lib/support/schemas'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/leads', {
  GET: endpoint({
    summary: "The organization's leads (emails visitors left), newest first, of one agent with agentId",
    tag: 'Conversations',
    access: { scope: 'conversations:read' },
    query: LeadListParams,
    response: LeadsPage,
    handler: ({ ctx, query }) => listLeads(ctx, query),
  }),
})
