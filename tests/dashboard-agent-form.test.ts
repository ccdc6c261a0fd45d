import { describe, expect, test } from 'vitest'
import { APPEARANCE_DEFAULTS } from '@/lib/agents/appearance'
import { AgentCreateBody, AgentUpdateBody } from '@/lib/agents/agent-schemas'
import { agentToFormValues, EMPTY_AGENT_FORM, toAgentBody, validateAgentForm, type AgentFormValues } from '@/components/agents/agent-form-schema'
import { newTool, toolToFormValue } from '@/components/agents/tool-form'

// The dashboard's agent form checks its fields in the browser with the API's rules: whatever the form accepts, the
// API accepts (create and update alike), and what the form refuses, the API refuses too.

const valid: AgentFormValues = {
  ...EMPTY_AGENT_FORM,
  name: 'Support',
  description: 'Answers customers',
  modelName: 'model_4_32k',
  temperature: 0.35,
  visibility: 'public',
  systemPrompt: 'You are helpful.\n{context}',
  userPrompt: 'Question: {query}',
  datastoreIds: ['ds_1', 'ds_2'],
  promptType: 'customer_support',
  promptTemplate: 'Be brief.',
}

const cases: [string, Partial<AgentFormValues>][] = [
  ['an empty name', { name: '' }],
  ['a name of spaces only', { name: '   ' }],
  ['a name of 201 characters', { name: 'x'.repeat(201) }],
  ['a description of 2001 characters', { description: 'x'.repeat(2001) }],
  ['a temperature below 0', { temperature: -0.01 }],
  ['a temperature above 1', { temperature: 1.01 }],
  ['a system prompt of 20001 characters', { systemPrompt: 'x'.repeat(20_001) }],
  ['a user prompt of 20001 characters', { userPrompt: 'x'.repeat(20_001) }],
  ['a prompt template of 20001 characters', { promptTemplate: 'x'.repeat(20_001) }],
  ['51 datastores', { datastoreIds: Array.from({ length: 51 }, (_, i) => `ds_${i}`) }],
]

const edges: [string, Partial<AgentFormValues>][] = [
  ['a name of exactly 200 characters', { name: 'x'.repeat(200) }],
  ['a description of exactly 2000 characters', { description: 'x'.repeat(2000) }],
  ['temperature 0', { temperature: 0 }],
  ['temperature 1', { temperature: 1 }],
  ['an empty description', { description: '' }],
  ['empty prompts', { systemPrompt: '', userPrompt: '', promptTemplate: '', promptType: '' }],
  ['50 datastores', { datastoreIds: Array.from({ length: 50 }, (_, i) => `ds_${i}`) }],
]

describe('the agent form', () => {
  test('a complete form passes, and its body is accepted by the API on create and on update', () => {
    expect(validateAgentForm(valid)).toBeNull()
    const body = toAgentBody(valid)
    expect(AgentCreateBody.safeParse(body).success).toBe(true)
    expect(AgentUpdateBody.safeParse(body).success).toBe(true)
  })

  test.each(cases)('refuses %s, as the API does', (_, change) => {
    const values = { ...valid, ...change }
    const errors = validateAgentForm(values)
    expect(errors).not.toBeNull()
    expect(Object.keys(errors!)).toEqual(Object.keys(change))
    expect(AgentCreateBody.safeParse(toAgentBody(values)).success).toBe(false)
  })

  test.each(edges)('accepts %s, as the API does', (_, change) => {
    const values = { ...valid, ...change }
    expect(validateAgentForm(values)).toBeNull()
    expect(AgentCreateBody.safeParse(toAgentBody(values)).success).toBe(true)
    expect(AgentUpdateBody.safeParse(toAgentBody(values)).success).toBe(true)
  })

  test('the update body always carries the description PATCH requires, even when it is empty', () => {
    const body = toAgentBody({ ...valid, description: '' })
    expect(body.description).toBe('')
    expect(AgentUpdateBody.safeParse(body).success).toBe(true)
  })

  test('empty prompts are sent as null, so the agent uses the defaults', () => {
    const body = toAgentBody({ ...valid, systemPrompt: ' ', userPrompt: '', promptType: '', promptTemplate: '' })
    expect(body).toMatchObject({ systemPrompt: null, userPrompt: null, promptType: null, promptTemplate: null })
  })

  test('an agent read from the API fills the form and comes back unchanged', () => {
    const agent = {
      id: 'a1',
      name: 'Support',
      description: 'd',
      modelName: 'model_4' as const,
      temperature: 0.2,
      visibility: 'private' as const,
      systemPrompt: null,
      userPrompt: 'Q: {query}',
      promptType: null,
      promptTemplate: null,
      datastoreIds: ['x'],
      appearance: APPEARANCE_DEFAULTS,
      allowedDomains: ['example.com'],
      requireSignedVisitors: false,
      visitorSecretPrefix: null,
      rewriteQuestions: false,
      minScore: 0.3,
      noAnswerMessage: 'Say sorry.',
      maxTokens: null,
      tools: [],
      createdAt: '',
      updatedAt: '',
    }
    const values = agentToFormValues(agent)
    expect(validateAgentForm(values)).toBeNull()
    expect(toAgentBody(values)).toEqual({
      name: 'Support',
      description: 'd',
      modelName: 'model_4',
      temperature: 0.2,
      visibility: 'private',
      systemPrompt: null,
      userPrompt: 'Q: {query}',
      promptType: null,
      promptTemplate: null,
      datastoreIds: ['x'],
      appearance: APPEARANCE_DEFAULTS,
      allowedDomains: ['example.com'],
      requireSignedVisitors: false,
      rewriteQuestions: false,
      minScore: 0.3,
      noAnswerMessage: 'Say sorry.',
      maxTokens: null,
      tools: [],
    })
  })

  test('a stored tool fills the form and is sent back with its masked header, which keeps the stored secret', () => {
    const tool = {
      type: 'http' as const,
      name: 'get_order',
      description: 'An order',
      method: 'GET' as const,
      url: 'https://shop.example.com/orders/{id}',
      headers: { 'X-Api-Key': '********' as const },
      parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      requiresApproval: true,
    }
    const values = { ...valid, tools: [toolToFormValue(tool)] }
    expect(validateAgentForm(values)).toBeNull()
    expect(toAgentBody(values).tools).toEqual([{ type: 'http', name: 'get_order', description: 'An order', method: 'GET', url: tool.url, headers: { 'X-Api-Key': '********' }, parameters: tool.parameters, requiresApproval: true }])
  })

  test('the built-in actions are sent as their type alone, and come back from the stored agent', () => {
    const values = { ...valid, tools: [newTool('request_human'), newTool('lead_capture')] }
    expect(validateAgentForm(values)).toBeNull()
    expect(toAgentBody(values).tools).toEqual([{ type: 'request_human' }, { type: 'lead_capture' }])
    expect(toolToFormValue({ type: 'mark_as_resolved' }).type).toBe('mark_as_resolved')
  })

  test("a tool's parameters that are not JSON, or a tool without a name, are refused naming the tool", () => {
    const broken = { ...newTool('http'), name: 'lookup', description: 'x', url: 'https://a.example/x', parameters: '{ nope' }
    expect(validateAgentForm({ ...valid, tools: [broken] })).toMatchObject({ tools: expect.stringMatching(/^lookup: parameters/) })
    expect(validateAgentForm({ ...valid, tools: [{ ...newTool('mcp'), url: 'https://mcp.example/mcp' }] })).toMatchObject({ tools: expect.stringMatching(/^Tool 1: name/) })
  })

  test('the retrieval settings: an empty floor is none, a floor outside 0 to 1 is refused, an empty reply is the default', () => {
    expect(toAgentBody({ ...valid, minScore: '', noAnswerMessage: ' ' })).toMatchObject({ minScore: null, noAnswerMessage: null })
    expect(toAgentBody({ ...valid, minScore: '0.25' })).toMatchObject({ minScore: 0.25 })
    expect(validateAgentForm({ ...valid, minScore: '1.5' })).toMatchObject({ minScore: 'A number from 0 to 1, or empty' })
    expect(validateAgentForm({ ...valid, minScore: 'abc' })).toMatchObject({ minScore: expect.any(String) })
  })
})
