import { authenticate } from '@/lib/auth/tenant'
import { answerGaps } from '@/lib/gaps/resolve'
import { GapAnswerBody } from '@/lib/gaps/schemas'
import { parseJson } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // "add an answer": a text datasource in the chosen datastore, then the gaps marked answered
  POST: async req => {
    const ctx = await authenticate(req)
    return Response.json(await answerGaps(ctx, await parseJson(req, GapAnswerBody)), { status: 201 })
  },
})
