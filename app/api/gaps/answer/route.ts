import { GapsResolved } from '@/lib/domain/inbox'
import { answerGaps } from '@/lib/gaps/resolve'
import { GapAnswerBody } from '@/lib/gaps/schemas'
import { endpoint, endpoints } from '@/lib/api/endpoint'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/gaps/answer', {
  // a text datasource in the chosen datastore, then the gaps marked answered
  POST: endpoint({
    summary: 'Add the missing answer: a text datasource in the chosen datastore; the gaps are marked answered',
    access: { scope: 'datastores:write' },
    body: GapAnswerBody,
    response: GapsResolved,
    status: 201,
    handler: ({ ctx, body }) => answerGaps(ctx, body),
  }),
})
