// The support workflow (issue 23, DESIGN.md §11): a conversation's status, who answers it, its assignee and priority
// (transitions.ts, the only writer), people's messages (messages.ts), leads (leads.ts), the team told (notify.ts).
// Plain functions with explicit inputs, so the agent's built-in tools (request_human, mark_as_resolved, lead_capture)
// can call them with AGENT_ACTOR.
export { AGENT_ACTOR, operatorOf, visitorActor, type SupportActor } from './actor'
export { findOwnConversation, findSupportConversation, stateOf, type SupportConversation } from './conversation'
export { assign, changeConversation, handBack, reopenConversation, requestHuman, resolveConversation, setPriority, takeOver, type StateChange } from './transitions'
export { appendOperatorReply, appendVisitorMessage, postConversationMessage } from './messages'
export { captureLead, exportLeads, listLeads, type LeadAgent } from './leads'
export { updateConversationState } from './update'
export { conversationEvents, conversationLeads } from './events'
export { leadEmailOf } from './notify'
export { listMembers } from './members'
