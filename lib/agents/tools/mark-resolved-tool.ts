import { AGENT_ACTOR, findOwnConversation, resolveConversation } from '@/lib/support'
import { builtinKind, NO_ARGUMENTS } from './builtin'

// mark_as_resolved (issue 23): the agent resolves the conversation, as the visitor's "Resolved" does: the status
// RESOLVED, its event and the webhook conversation.resolved (lib/support).

export const markAsResolvedTool = builtinKind('mark_as_resolved', {
  description: "Marks the conversation as resolved. Call it when the customer says their question is answered and they need nothing more.",
  inputSchema: NO_ARGUMENTS,
  run: async (_args, context) => {
    const conversation = await findOwnConversation(context.organizationId, context.conversationId)
    await resolveConversation(conversation, AGENT_ACTOR)
    return 'Done: the conversation is marked as resolved.'
  },
})
