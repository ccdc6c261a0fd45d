import { identify } from '@/lib/auth/tenant'
import { recordFeedback } from '@/lib/feedback/feedback'
import { FeedbackBody } from '@/lib/feedback/schemas'
import { parseId, parseJson } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // a vote on an answer: one per voter, changeable (201 for a first vote, 200 for a change)
  POST: async (req, { params }) => {
    const conversationId = await parseId(params)
    const messageId = await parseId(params, 'messageId')
    const body = await parseJson(req, FeedbackBody)
    const { feedback, created } = await recordFeedback(await identify(req), { conversationId, messageId }, body)
    return Response.json(feedback, { status: created ? 201 : 200 })
  },
})
