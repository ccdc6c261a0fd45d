import { GapsResolved } from '@/lib/domain/inbox'
import { dismissGaps } from '@/lib/gaps/resolve'
import { GapDismissBody } from '@/lib/gaps/schemas'
import { endpoint, endpoints } from '@/lib/api/endpoint'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/gaps/dismiss', {
  POST: endpoint({
    summary: 'Take answers out of the gap queue',
    access: { scope: 'conversations:write' },
    body: GapDismissBody,
    response: GapsResolved,
    handler: ({ ctx, body }) => dismissGaps(ctx, body.messageIds),
  }),
})
