import { AuditListParams, listAudit } from '@/lib/audit/list'
import { endpoint, endpoints } from '@/lib/api/endpoint'
import { AuditPage } from '@/lib/domain/audit'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/audit-log', {
  GET: endpoint({
    summary: 'Who changed what: the audit log, newest first, filtered by actor, action and time',
    tag: 'Account',
    access: { scope: 'admin' },
    query: AuditListParams,
    response: AuditPage,
    handler: ({ ctx, query }) => listAudit(ctx, query),
  }),
})
