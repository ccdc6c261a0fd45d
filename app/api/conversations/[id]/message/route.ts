import { endpoint, endpoints } from '@/lib/api/endpoint'
import { AppendedMessage } from '@/lib/domain/support'
import { clientAddress } from '@/lib/http/route'
import { postConversationMessage } from '@/lib/support'
import { ConversationMessageBody } from '@/lib/support/schemas'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/conversations/{id}/message', {
  // Chaindesk's widget sends the visitor's messages here while a person has the conversation (issue 23)
  POST: endpoint({
    summary: "Write in a conversation without the model: the visitor's message (no key, a public agent's conversation, its own visitor), or an operator's reply (a key or session), which takes the conversation over",
    access: { scope: 'conversations:write', anonymous: 'conversation' },
    body: ConversationMessageBody,
    response: AppendedMessage,
    status: 201,
    handler: ({ req, ctx, params, body }) => postConversationMessage(ctx, params.id, body, clientAddress(req)),
  }),
})
