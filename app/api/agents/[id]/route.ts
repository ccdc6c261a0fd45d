import { resolveAgentAccess } from '@/lib/agents/agent-access'
import { toAgentResource, toPublicAgentResource } from '@/lib/agents/agent-resource'
import { AgentDeleteBody, AgentUpdateBody } from '@/lib/agents/agent-schemas'
import { deleteAgent, updateAgent } from '@/lib/agents/agents'
import { authenticate, identify } from '@/lib/auth/tenant'
import { parseId, parseJson, parseOptionalJson } from '@/lib/http/body'
import { requestSite } from '@/lib/http/cors'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // the agent's organization sees the whole resource; anyone sees a public agent's name and description (chat page)
  GET: async (req, { params }) => {
    const id = await parseId(params)
    const access = await resolveAgentAccess(await identify(req), id, requestSite(req))
    return Response.json(access.member ? toAgentResource(access.agent) : toPublicAgentResource(access.agent))
  },
  PATCH: async (req, { params }) => {
    const ctx = await authenticate(req)
    const id = await parseId(params)
    const body = await parseJson(req, AgentUpdateBody)
    return Response.json(await updateAgent(ctx, id, body))
  },
  DELETE: async (req, { params }) => {
    const ctx = await authenticate(req)
    const id = await parseId(params)
    await parseOptionalJson(req, AgentDeleteBody)
    return Response.json(await deleteAgent(ctx, id))
  },
})
