import { beforeEach, describe, expect, test } from 'vitest'
import * as conversationItem from '@/app/api/conversations/[id]/route'
import { resetPublicQueryLimits } from '@/lib/rate-limit/public-queries'
import { createAgentVia, parseSse, queryAgentVia, seedDatastore, useFakeModel } from './helpers/agents'
import { call } from './helpers/http'
import { createTenant } from './helpers/tenants'

// "Sources hidden" (issue 14): a visitor of a public agent sees an answer's sources as the agent allows (none,
// titles, titles and text); the fragments' text never reaches them when hidden, in JSON, in the stream, or in the
// conversation read back. The agent's organization always sees everything.

const model = useFakeModel()
beforeEach(() => resetPublicQueryLimits())

const SECRET = 'Employees get 31 days of paid leave and a bonus in March.'
const QUESTION = 'How many days of paid leave do employees get?'

async function publicAgent(sourcesVisibility: 'none' | 'titles' | 'full') {
  const tenant = await createTenant()
  const { datastoreId } = await seedDatastore(tenant, [{ text: SECRET, name: 'handbook.md' }])
  const agent = await createAgentVia(tenant, { visibility: 'public', datastoreIds: [datastoreId], appearance: { sourcesVisibility } })
  model.fake.setBehaviour({ reply: 'Ask HR.', delayMs: 1 })
  return { tenant, agent }
}

const readConversation = (id: string, headers: Record<string, string> = {}) =>
  call(conversationItem.GET, `/api/conversations/${id}`, { headers, params: { id } })

describe('sources shown to visitors', () => {
  for (const visibility of ['none', 'titles'] as const) {
    test(`"${visibility}": the fragments' text reaches the visitor neither in JSON, nor in the stream, nor in the history`, async () => {
      const { agent } = await publicAgent(visibility)
      const json = await queryAgentVia(agent.id, { query: QUESTION })
      expect(json.status).toBe(200)
      expect(json.text).not.toContain('31 days')
      const stream = await queryAgentVia(agent.id, { query: QUESTION, streaming: true })
      expect(stream.text).not.toContain('31 days')
      expect(parseSse(stream.text).endpointResponse).toBeDefined()
      const chaindesk = await queryAgentVia(agent.id, { query: QUESTION, streaming: true, channel: 'website' })
      expect(decodeURIComponent(chaindesk.text)).not.toContain('31 days')
      const history = await readConversation(json.json.conversationId)
      expect(history.status).toBe(200)
      expect(history.text).not.toContain('31 days')
      if (visibility === 'none') expect(json.json.sources).toEqual([])
      else expect(json.json.sources).toEqual([expect.objectContaining({ text: '', source: 'handbook.md', datasource_name: 'handbook.md' })])
    })
  }

  test('"full": the visitor sees titles and text', async () => {
    const { agent } = await publicAgent('full')
    const res = await queryAgentVia(agent.id, { query: QUESTION, streaming: true })
    expect(parseSse(res.text).endpointResponse?.sources[0].text).toBe(SECRET)
  })

  test('the organization sees every source whatever the setting, and the stored answer keeps them', async () => {
    const { tenant, agent } = await publicAgent('none')
    const res = await queryAgentVia(agent.id, { query: QUESTION }, tenant.headers)
    expect(res.json.sources[0].text).toBe(SECRET)
    const visitor = await queryAgentVia(agent.id, { query: QUESTION })
    const history = await readConversation(visitor.json.conversationId, tenant.headers)
    expect(history.json.messages[1].sources[0].text).toBe(SECRET)
  })
})
