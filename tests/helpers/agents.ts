import { createParser } from 'eventsource-parser'
import * as agentItem from '@/app/api/agents/[id]/route'
import * as agentQuery from '@/app/api/agents/[id]/query/route'
import * as agents from '@/app/api/agents/route'
import { getDatabase, getPrisma } from '@/lib/db/client'
import { decodeAnswerEvent, type AgentAnswer, type AnswerEvent, type SseEvent } from '@/lib/domain/answer-events'
import { call } from './http'
import type { TestTenant } from './tenants'

export { useFakeModel, type FakeOpenAI } from './fake-model'

/**
 * A datastore of the tenant holding one synched datasource per text, each as one chunk (written with SQL, as the
 * ingest worker would leave them).
 */
export async function seedDatastore(tenant: TestTenant, texts: { text: string; name?: string; customId?: string }[]) {
  const prisma = await getPrisma()
  const organizationId = tenant.ctx.organizationId
  const store = await prisma.datastore.create({ data: { organizationId, name: 'Docs' } })
  const datasourceIds: string[] = []
  const { sql } = await getDatabase()
  for (const [i, t] of texts.entries()) {
    const ds = await prisma.datasource.create({
      data: { organizationId, datastoreId: store.id, type: 'text', name: t.name ?? `doc ${i + 1}`, status: 'synched', customId: t.customId ?? null },
    })
    datasourceIds.push(ds.id)
    await sql.query(
      `INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens, custom_id)
       VALUES ($1, $2, $3, $4, 0, $5, $6, $7)`,
      [`chunk_${ds.id}`, organizationId, store.id, ds.id, t.text, t.text.split(/\s+/).length, t.customId ?? null],
    )
  }
  return { datastoreId: store.id, datasourceIds }
}

export async function createAgentVia(tenant: TestTenant, body: Record<string, unknown> = {}) {
  const res = await call(agents.POST, '/api/agents', { method: 'POST', headers: tenant.headers, body: { name: 'Helper', ...body } })
  if (res.status !== 201) throw new Error(`agent not created: ${res.status} ${res.text}`)
  return res.json
}

export function queryAgentVia(agentId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return call(agentQuery.POST, `/api/agents/${agentId}/query`, { method: 'POST', headers, body, params: { id: agentId } })
}

export function getAgentVia(agentId: string, headers: Record<string, string> = {}) {
  return call(agentItem.GET, `/api/agents/${agentId}`, { headers, params: { id: agentId } })
}

export interface ParsedSse {
  /** The events as sent: name and data. */
  wire: SseEvent[]
  /** The answer events they stand for, as a client decodes them (unknown ones left out). */
  events: AnswerEvent[]
  /** The `answer` pieces, concatenated. */
  answer: string
  /** The answer of the `endpoint_response` event, if one came. */
  endpointResponse: AgentAnswer | undefined
}

export function parseSse(text: string): ParsedSse {
  const wire: SseEvent[] = []
  createParser({ onEvent: e => wire.push({ event: e.event, data: e.data }) }).feed(text)
  const events = wire.map(decodeAnswerEvent).filter(e => e !== null)
  const answer = events.map(e => (e.type === 'answer' ? e.text : '')).join('')
  const endpointResponse = events.find(e => e.type === 'endpoint_response')?.answer
  return { wire, events, answer, endpointResponse }
}

/** The text of the messages the model was sent, by role. */
export function sentMessages(body: any): { role: string; content: string }[] {
  return (body.messages ?? []).map((m: any) => ({
    role: m.role,
    content: typeof m.content === 'string' ? m.content : m.content.map((p: any) => p.text ?? '').join(''),
  }))
}
