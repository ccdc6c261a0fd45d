import { AGENT_ACTOR, findOwnConversation, requestHuman } from '@/lib/support'
import { builtinKind, NO_ARGUMENTS } from './builtin'

// request_human (issue 23): the agent hands the conversation to the team, as the visitor's "Talk to a person" does:
// the status HUMAN_REQUESTED, its event, the webhook conversation.human_requested and the mail (lib/support).

export const requestHumanTool = builtinKind('request_human', {
  description:
    'Hands the conversation to a person of the team (a human operator). Call it when the customer asks to talk to a person, or accepts your offer of one.',
  inputSchema: NO_ARGUMENTS,
  run: async (_args, context) => {
    const conversation = await findOwnConversation(context.organizationId, context.conversationId)
    if (conversation.status === 'HUMAN_REQUESTED') return 'The team was already asked: a person will reply in this conversation.'
    await requestHuman(conversation, AGENT_ACTOR)
    return 'Done: the team was asked to take over. Tell the customer that a person will reply in this conversation.'
  },
})
