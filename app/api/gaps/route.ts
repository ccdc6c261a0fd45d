import { z } from 'zod'
import { GapGroup } from '@/lib/domain/inbox'
import { listGaps } from '@/lib/gaps/queue'
import { GapListParams } from '@/lib/gaps/schemas'
import { endpoint, endpoints } from '@/lib/api/endpoint'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/gaps', {
  GET: endpoint({
    summary: 'The knowledge-gap queue: answers with no or weak sources and answers voted down, grouped by similar question',
    access: { scope: 'conversations:read' },
    query: GapListParams,
    response: z.array(GapGroup),
    handler: ({ ctx, query }) => listGaps(ctx, query),
  }),
})
