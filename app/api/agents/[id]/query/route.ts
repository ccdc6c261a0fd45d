import { resolveAgentAccess } from '@/lib/agents/agent-access'
import { AgentQueryBody, AgentQueryParams } from '@/lib/agents/agent-schemas'
import { queryAgent } from '@/lib/agents/query-agent'
import { AgentAnswer, ANSWER_STREAM_DESCRIPTION } from '@/lib/domain/answer-events'
import { requestSite } from '@/lib/http/cors'
import { endpoint, endpoints } from '@/lib/api/endpoint'
import { clientAddress } from '@/lib/http/route'
import { sseResponse } from '@/lib/http/sse'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/agents/{id}/query', {
  // spec §4.2: JSON, or an event stream when `streaming` is true (errors known before the stream opens stay JSON)
  POST: endpoint({
    summary: 'Query an agent (spec §4.2), as JSON or as an event stream',
    access: { scope: 'agents:query', anonymous: 'agent' },
    query: AgentQueryParams,
    body: AgentQueryBody,
    response: AgentAnswer,
    stream: ANSWER_STREAM_DESCRIPTION,
    audit: false,
    aliases: ['/agents/{id}/query', '/agents/query/{id}', '/api/agents/query/{id}'],
    handler: async ({ req, ctx, params, query, body }) => {
      const access = await resolveAgentAccess(ctx, params.id, requestSite(req))
      // the client goes away when its request is aborted, or when it cancels the event stream
      const cancelled = new AbortController()
      const signal = AbortSignal.any([req.signal, cancelled.signal])
      const reply = await queryAgent(access, body, { signal, clientAddress: clientAddress(req), streamEncoding: query.streamEncoding })
      if (reply.kind === 'json') return reply.answer
      return sseResponse(reply.events, { encoding: reply.encoding, onCancel: () => cancelled.abort() })
    },
  }),
})
