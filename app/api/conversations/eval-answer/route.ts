import { identify } from '@/lib/auth/tenant'
import { recordFeedback } from '@/lib/feedback/feedback'
import { EvalAnswerBody } from '@/lib/feedback/schemas'
import { parseJson } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // Chaindesk's vote on an answer: { messageId, visitorId?, eval: 'good' | 'bad' }; answers the vote
  POST: async req => {
    const { messageId, ...vote } = await parseJson(req, EvalAnswerBody)
    const { feedback } = await recordFeedback(await identify(req), { messageId }, vote)
    return Response.json(feedback)
  },
})
