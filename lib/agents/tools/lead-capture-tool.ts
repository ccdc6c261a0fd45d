import { z } from 'zod'
import { AGENT_ACTOR, captureLead } from '@/lib/support'
import { VisitorEmail } from '@/lib/support/schemas'
import { builtinKind } from './builtin'

// lead_capture (issue 23): the agent keeps the contact the customer gave, as Chaindesk's lead form does: a lead of
// the conversation (GET /api/leads) and the webhook lead.captured. An address that is not one is an error result,
// for the model to ask again.

const LeadArguments = z.object({
  email: VisitorEmail,
  name: z.string().trim().max(200).optional(),
  phone: z.string().trim().max(40).optional(),
})

export const leadCaptureTool = builtinKind('lead_capture', {
  description: "Keeps the customer's contact for the team: their email address (required), name and phone if they gave them. Call it when the customer leaves their contact.",
  inputSchema: {
    type: 'object',
    properties: {
      email: { type: 'string', description: "The customer's email address" },
      name: { type: 'string', description: "The customer's name, if given" },
      phone: { type: 'string', description: "The customer's phone number, if given" },
    },
    required: ['email'],
  },
  run: async (args, context) => {
    const parsed = LeadArguments.safeParse(args)
    if (!parsed.success) throw new Error(`${parsed.error.issues.map(i => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ')}: nothing was kept`)
    const { email, name, phone } = parsed.data
    const agent = { organizationId: context.organizationId, agentId: context.agentId, member: true }
    await captureLead(agent, { visitorEmail: email, conversationId: context.conversationId }, 'agent', { name, phone, actor: AGENT_ACTOR })
    return `Done: the contact ${email} is kept for the team.`
  },
})
