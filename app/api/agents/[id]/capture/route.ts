import { resolveAgentAccess } from '@/lib/agents/agent-access'
import { endpoint, endpoints, reply } from '@/lib/api/endpoint'
import { CapturedLead } from '@/lib/domain/support'
import { requestSite } from '@/lib/http/cors'
import { clientAddress } from '@/lib/http/route'
import { captureLead } from '@/lib/support'
import { CaptureBody } from '@/lib/support/schemas'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/agents/{id}/capture', {
  // Chaindesk's widget: its lead form ("Let us know how to contact you") (issue 23)
  POST: endpoint({
    summary: "Leave a visitor's contact email with an agent (a public agent's visitor needs no key); the same email in the same conversation is stored once",
    access: { scope: 'agents:query', anonymous: 'agent' },
    body: CaptureBody,
    response: CapturedLead,
    status: 201,
    handler: async ({ req, ctx, params, body }) => {
      const access = await resolveAgentAccess(ctx, params.id, requestSite(req))
      const agent = { organizationId: access.organizationId, agentId: access.agent.id, member: access.member }
      const { lead, created } = await captureLead(agent, body, clientAddress(req))
      return reply(lead, created ? 201 : 200)
    },
  }),
})
