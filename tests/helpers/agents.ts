import { createParser } from 'eventsource-parser'
import * as agentItem from '@/app/api/agents/[id]/route'
import * as agentQuery from '@/app/api/agents/[id]/query/route'
import * as agents from '@/app/api/agents/route'
import { getDatabase, getPrisma } from '@/lib/db/client'
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
  events: { event: string | undefined; data: string }[]
  /** The `answer` pieces, concatenated. */
  answer: string
  endpointResponse: any
}

export function parseSse(text: string): ParsedSse {
  const events: ParsedSse['events'] = []
  const parser = createParser({ onEvent: e => events.push({ event: e.event, data: e.data }) })
  parser.feed(text)
  const answer = events.filter(e => e.event === 'answer').map(e => e.data).join('')
  const response = events.filter(e => e.event === 'endpoint_response').map(e => e.data).join('')
  return { events, answer, endpointResponse: response ? JSON.parse(response) : undefined }
}

/** The text of the messages the model was sent, by role. */
export function sentMessages(body: any): { role: string; content: string }[] {
  return (body.messages ?? []).map((m: any) => ({
    role: m.role,
    content: typeof m.content === 'string' ? m.content : m.content.map((p: any) => p.text ?? '').join(''),
  }))
}
