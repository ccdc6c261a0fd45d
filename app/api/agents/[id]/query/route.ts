import { resolveAgentAccess } from '@/lib/agents/agent-access'
import { AgentQueryBody, AgentQueryParams } from '@/lib/agents/agent-schemas'
import { queryAgent } from '@/lib/agents/query-agent'
import { identify } from '@/lib/auth/tenant'
import { parseId, parseJson, parseSearchParams } from '@/lib/http/body'
import { requestSite } from '@/lib/http/cors'
import { clientAddress, routes } from '@/lib/http/route'
import { sseResponse } from '@/lib/http/sse'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // spec §4.2: JSON, or an event stream when `streaming` is true (errors known before the stream opens stay JSON)
  POST: async (req, { params }) => {
    const id = await parseId(params)
    const { streamEncoding } = parseSearchParams(req, AgentQueryParams)
    const access = await resolveAgentAccess(await identify(req), id, requestSite(req))
    const body = await parseJson(req, AgentQueryBody)
    // the client goes away when its request is aborted, or when it cancels the event stream
    const cancelled = new AbortController()
    const signal = AbortSignal.any([req.signal, cancelled.signal])
    const reply = await queryAgent(access, body, { signal, clientAddress: clientAddress(req), streamEncoding })
    if (reply.kind === 'json') return Response.json(reply.answer)
    return sseResponse(reply.events, { encoding: reply.encoding, onCancel: () => cancelled.abort() })
  },
})
