import { resolveAgentAccess } from '@/lib/agents/agent-access'
import { AgentQueryBody } from '@/lib/agents/agent-schemas'
import { queryAgent } from '@/lib/agents/query-agent'
import { parseId, parseJson } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // spec §4.2: JSON, or an event stream when `streaming` is true (errors known before the stream opens stay JSON)
  POST: async (req, { params }) => {
    const access = await resolveAgentAccess(req, await parseId(params))
    const body = await parseJson(req, AgentQueryBody)
    return queryAgent(req, access, body)
  },
})
