import { APICallError, type ModelMessage } from 'ai'
import { afterEach, describe, expect, test } from 'vitest'
import { chatModel } from '@/lib/agents/model-catalogue'
import { startModelDeadline, type ModelDeadline } from '@/lib/agents/model-deadline'
import { plainCall, providerParts, type ProviderPart } from '@/lib/agents/model-stream'
import { useFakeModel } from './helpers/agents'

// An agent without tools has its model called through the provider's streaming call directly (lib/agents/model-stream.ts):
// the same request streamText would send, its pieces and usage, one retry of a call that failed before answering.

const model = useFakeModel()
const settings = { temperature: 0 }
const deadlines: ModelDeadline[] = []
const deadline = () => deadlines[deadlines.push(startModelDeadline(undefined, 60_000)) - 1]
afterEach(() => deadlines.splice(0).forEach(d => d.dispose()))

async function collect(parts: AsyncIterable<ProviderPart>) {
  const out: ProviderPart[] = []
  for await (const part of parts) out.push(part)
  return out
}

describe("the provider's streaming call", () => {
  test('a plain-text conversation is sent as the provider reads it; anything else is left to streamText', () => {
    const { model: provider } = chatModel('model_3_5_turbo')
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] },
    ]
    expect(plainCall(provider, 'Be brief.', messages)?.prompt).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] },
    ])
    expect(plainCall('gpt-4o-mini', 'Be brief.', messages)).toBeNull()
    const withImage: ModelMessage[] = [{ role: 'user', content: [{ type: 'image', image: new URL('https://example.com/a.png') }] }]
    expect(plainCall(provider, 'Be brief.', withImage)).toBeNull()
    const withTool: ModelMessage[] = [{ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 't', output: { type: 'text', value: 'x' } }] }]
    expect(plainCall(provider, 'Be brief.', withTool)).toBeNull()
  })

  test('the pieces arrive as the model writes them, then the usage', async () => {
    model.fake.setBehaviour({ reply: 'Two years, from the date of purchase.', delayMs: 1 })
    const call = plainCall(chatModel('model_3_5_turbo').model, 'Be brief.', [{ role: 'user', content: 'Warranty?' }])!
    const parts = await collect(providerParts(call, settings, deadline()))
    const texts = parts.filter(p => p.type === 'text')
    expect(texts.length).toBeGreaterThan(1)
    expect(texts.map(p => p.text).join('')).toBe('Two years, from the date of purchase.')
    expect(parts.at(-1)).toMatchObject({ type: 'usage', tokens: { promptTokens: expect.any(Number), completionTokens: expect.any(Number) } })
    expect(model.fake.chatRequests().at(-1)).toMatchObject({ stream: true, temperature: 0, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Warranty?' }] })
  })

  test('a call refused with a 5xx is retried once, 2 s later; a 400 is not', async () => {
    const call = plainCall(chatModel('model_3_5_turbo').model, 'Be brief.', [{ role: 'user', content: 'Hi' }])!
    model.fake.setBehaviour({ mode: 'error', status: 503 })
    const started = Date.now()
    const failed = await collect(providerParts(call, settings, deadline())).catch(error => error)
    expect(APICallError.isInstance(failed) && failed.statusCode).toBe(503)
    expect(model.fake.chatRequests()).toHaveLength(2)
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900)
    model.fake.reset()
    model.fake.setBehaviour({ mode: 'error', status: 400 })
    await expect(collect(providerParts(call, settings, deadline()))).rejects.toMatchObject({ statusCode: 400 })
    expect(model.fake.chatRequests()).toHaveLength(1)
  })
})
