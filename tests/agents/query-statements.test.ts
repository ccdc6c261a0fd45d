import { afterEach, describe, expect, test, vi } from 'vitest'
import { ThreadedPglite } from '@/lib/db/pglite-thread'
import { createAgentVia, queryAgentVia, useFakeModel } from '../helpers/agents'
import { createTenant } from '../helpers/tenants'

// What a question costs the database (issue 28): the checks before an answer (a verified visitor's conversation,
// a person's takeover, the conversation's agent and visitor) read the conversation, the visitor and the history once,
// together.

const model = useFakeModel()

/** The statements sent to the embedded database while `run` runs (Prisma's and plain SQL alike). */
async function statementsDuring(run: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = []
  const spies = (['query', 'queryWithSettings'] as const).map(method => {
    const original = ThreadedPglite.prototype[method] as (...args: unknown[]) => Promise<unknown>
    return vi.spyOn(ThreadedPglite.prototype, method).mockImplementation(function (this: ThreadedPglite, ...args: unknown[]) {
      sent.push(String(method === 'query' ? args[0] : args[1]))
      return original.apply(this, args) as never
    })
  })
  try {
    await run()
  } finally {
    for (const spy of spies) spy.mockRestore()
  }
  return sent
}

const readsConversation = (sql: string) => /^\s*(WITH[\s\S]*?\)\s*)?SELECT/i.test(sql) && /"Conversation"/.test(sql) && !/INSERT|UPDATE/i.test(sql)

describe('the statements of a question', () => {
  afterEach(() => vi.restoreAllMocks())

  test.skipIf(process.env.TEST_DATABASE === 'postgres')('a follow-up reads its conversation, visitor and history in one statement before answering', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    const first = await queryAgentVia(agent.id, { query: 'Hello there', visitorId: 'visitor_statements_0001' }, tenant.headers)
    expect(first.status).toBe(200)
    let followUp: Awaited<ReturnType<typeof queryAgentVia>> | undefined
    const sent = await statementsDuring(async () => {
      followUp = await queryAgentVia(agent.id, { query: 'And then?', conversationId: first.json.conversationId, visitorId: 'visitor_statements_0001' }, tenant.headers)
    })
    expect(followUp!.status).toBe(200)
    expect(followUp!.json.conversationId).toBe(first.json.conversationId)
    const reads = sent.filter(readsConversation)
    expect(reads, reads.join('\n---\n')).toHaveLength(1)
    expect(reads[0]).toContain('"Visitor"')
    expect(reads[0]).toContain('"Message"')
    expect(sent.filter(s => /^\s*SELECT/i.test(s) && /FROM "Message"/.test(s) && !/"Conversation"/.test(s))).toEqual([])
    // the history reached the model: the first question and its answer come before the follow-up
    const roles = model.fake.requests.at(-1)!.body.messages.map((m: { role: string }) => m.role)
    expect(roles.slice(-3)).toEqual(['user', 'assistant', 'user'])
  })
})
