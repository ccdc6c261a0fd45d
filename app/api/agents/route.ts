import { AgentCreateBody } from '@/lib/agents/agent-schemas'
import { createAgent, listAgents } from '@/lib/agents/agents'
import { authenticate } from '@/lib/auth/tenant'
import { parseJson } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: async req => {
    const ctx = await authenticate(req)
    return Response.json(await listAgents(ctx))
  },
  POST: async req => {
    const ctx = await authenticate(req)
    const body = await parseJson(req, AgentCreateBody)
    return Response.json(await createAgent(ctx, body), { status: 201 })
  },
})
