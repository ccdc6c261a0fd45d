import { InboxPage } from '@/lib/domain/inbox'
import { endpoint, endpoints } from '@/lib/api/endpoint'
import { InboxListParams } from '@/lib/inbox/filters'
import { listInbox } from '@/lib/inbox/list'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/conversations', {
  // the inbox; Activepieces checks a key with it
  GET: endpoint({
    summary: "The organization's conversations, most recently active first, filtered by agent, channel, dates (started), text, feedback and no/weak sources",
    access: { scope: 'conversations:read' },
    query: InboxListParams,
    response: InboxPage,
    handler: ({ ctx, query }) => listInbox(ctx, query),
  }),
})
