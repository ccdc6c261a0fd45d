import { describe, expect, test } from 'vitest'
import {
  assemblePrompt,
  CUSTOMER_SUPPORT_SYSTEM_PROMPT,
  DEFAULT_SYSTEM_PROMPT,
  type PromptSettings,
} from '@/lib/agents/prompt'
import type { Fragment } from '@/lib/search/types'
import { createAgentVia, queryAgentVia, seedDatastore, sentMessages, useFakeModel } from './helpers/agents'
import { createTenant } from './helpers/tenants'

const model = useFakeModel()

const fragment: Fragment = {
  text: 'Descale the kettle every month.',
  score: 1,
  source: 'https://example.com/manual',
  datasource_id: 'ds1',
  datasource_name: 'manual',
  custom_id: null,
  metadata: {},
}

const assemble = (settings: PromptSettings, query = 'How often to descale?') =>
  assemblePrompt({ query, fragments: [fragment], history: [], settings })
const lastUser = (p: ReturnType<typeof assemblePrompt>) => p.messages.at(-1)!.content as string

describe('prompt assembly', () => {
  test('by default the system prompt says to answer from the context, which follows it, and the user message is the query', () => {
    const p = assemble({})
    expect(p.system.startsWith(DEFAULT_SYSTEM_PROMPT)).toBe(true)
    expect(p.system).toContain("do not know")
    expect(p.system).toContain('Descale the kettle every month.')
    expect(p.system).toContain('https://example.com/manual')
    expect(p.messages).toEqual([{ role: 'user', content: 'How often to descale?' }])
  })

  test('{query} and {context} are replaced where the prompts put them', () => {
    const p = assemble({ systemPrompt: 'Be short.', userPrompt: 'Docs:\n{context}\n\nQ: {query}' })
    expect(p.system).toBe('Be short.')
    expect(lastUser(p)).toContain('Docs:\n[1] Source: https://example.com/manual\nDescale the kettle every month.')
    expect(lastUser(p).endsWith('Q: How often to descale?')).toBe(true)
  })

  test('a user prompt without {query} gets the query appended', () => {
    const p = assemble({ userPrompt: 'Answer politely.' })
    expect(lastUser(p)).toBe('Answer politely.\n\nHow often to descale?')
  })

  test('placeholders inside the query are not expanded', () => {
    const p = assemble({ userPrompt: 'Q: {query}' }, 'what is {context}?')
    expect(lastUser(p)).toBe('Q: what is {context}?')
  })

  test('promptType raw uses promptTemplate as the user prompt', () => {
    const p = assemble({ promptType: 'raw', promptTemplate: 'Context: {context}\nQuestion: {query}\nAnswer:' })
    expect(lastUser(p)).toMatch(/^Context: \[1\][\s\S]*Question: How often to descale\?\nAnswer:$/)
    expect(p.system).toBe(DEFAULT_SYSTEM_PROMPT)
  })

  test('promptType customer_support uses the built-in support template, with promptTemplate as instructions', () => {
    const p = assemble({ promptType: 'customer_support', promptTemplate: 'Always sign as Kettle Co.' })
    expect(p.system).toContain(CUSTOMER_SUPPORT_SYSTEM_PROMPT)
    expect(p.system).toContain('Always sign as Kettle Co.')
    expect(p.system).toContain('Descale the kettle every month.')
    expect(lastUser(p)).toBe('Customer question: How often to descale?')
  })

  test('the support persona offers a person only when the agent has the request_human tool', () => {
    const without = assemble({ promptType: 'customer_support' })
    const withTool = assemble({ promptType: 'customer_support', canRequestHuman: true })
    expect(without.system).not.toContain('in touch with a human')
    expect(withTool.system).toContain('offer to put the customer in touch with a human')
    expect(withTool.system).toContain('request_human')
  })

  test('systemPrompt and userPrompt win over the deprecated promptType', () => {
    const p = assemble({ promptType: 'customer_support', systemPrompt: 'Mine {context}', userPrompt: 'U: {query}' })
    expect(p.system.startsWith('Mine [1]')).toBe(true)
    expect(lastUser(p)).toBe('U: How often to descale?')
  })

  test('without fragments the model is told nothing relevant was found', () => {
    const p = assemblePrompt({ query: 'q', fragments: [], history: [], settings: {} })
    expect(p.system).toContain('No relevant content was found')
  })

  test('history comes between the system prompt and the query', () => {
    const p = assemblePrompt({
      query: 'and now?',
      fragments: [],
      history: [
        { role: 'user', text: 'before' },
        { role: 'assistant', text: 'reply' },
      ],
      settings: {},
    })
    expect(p.messages).toEqual([
      { role: 'user', content: 'before' },
      { role: 'assistant', content: 'reply' },
      { role: 'user', content: 'and now?' },
    ])
  })
})

describe('prompts of a query', () => {
  test("the agent's prompts are used, and the body's override them for that query only", async () => {
    const tenant = await createTenant()
    const { datastoreId } = await seedDatastore(tenant, [{ text: 'Kettle descaling: monthly.' }])
    const agent = await createAgentVia(tenant, {
      datastoreIds: [datastoreId],
      systemPrompt: 'Agent system. Context: {context}',
      userPrompt: 'Agent asks: {query}',
    })
    await queryAgentVia(agent.id, { query: 'kettle descaling?', systemPrompt: 'Body system', userPrompt: 'Body asks: {query} with {context}' }, tenant.headers)
    await queryAgentVia(agent.id, { query: 'kettle descaling?' }, tenant.headers)

    const [overridden, normal] = model.fake.chatRequests().map(sentMessages)
    expect(overridden[0]).toEqual({ role: 'system', content: 'Body system' })
    expect(overridden.at(-1)!.content).toMatch(/^Body asks: kettle descaling\? with \[1\][\s\S]*Kettle descaling: monthly\.$/)
    expect(normal[0].content).toMatch(/^Agent system\. Context: \[1\]/)
    expect(normal.at(-1)).toEqual({ role: 'user', content: 'Agent asks: kettle descaling?' })
  })
})
