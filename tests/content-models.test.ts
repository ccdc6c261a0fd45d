// Models told truthfully (issue 15, defect 5): /api/health and the start log name the chat and embeddings endpoints
// and the model id of each modelName, never a key; with no model configured they say so.
import { afterEach, describe, expect, test, vi } from 'vitest'
import * as health from '@/app/api/health/route'
import { bootstrap } from '@/lib/bootstrap'
import { call } from './helpers/http'
import { createTenant } from './helpers/tenants'

const saved = { ...process.env }
afterEach(() => {
  for (const key of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'MODEL_MAP', 'EMBEDDINGS_MODEL', 'LOG_LEVEL']) {
    if (saved[key] === undefined) delete process.env[key]
    else process.env[key] = saved[key]
  }
  vi.restoreAllMocks()
})

describe('models told truthfully', () => {
  test('/api/health names the endpoints and the model each modelName maps to, without the key', async () => {
    process.env.OPENAI_API_KEY = 'sk-secret-never-shown'
    process.env.OPENAI_BASE_URL = 'http://user:pass@ollama.internal:11434/v1/?key=abc'
    process.env.MODEL_MAP = '{"model_3_5_turbo":"llama3.1:8b"}'
    process.env.EMBEDDINGS_MODEL = 'nomic-embed-text'
    const res = await call(health.GET, '/api/health', { headers: (await createTenant()).headers })
    expect(res.json.models).toEqual({
      chat: {
        configured: true,
        endpoint: 'http://ollama.internal:11434/v1',
        models: { model_3_5_turbo: 'llama3.1:8b', model_3_5_turbo_16k: 'gpt-4o-mini', model_4: 'gpt-4o', model_4_32k: 'gpt-4o' },
        problem: null,
      },
      embeddings: { configured: true, endpoint: 'http://ollama.internal:11434/v1', model: 'nomic-embed-text', dimensions: expect.any(Number) },
      lastFailure: null,
    })
    expect(res.text).not.toMatch(/sk-secret|pass|key=abc/)
  })

  test('with no key, health says no chat model is configured and what to set', async () => {
    delete process.env.OPENAI_API_KEY
    const res = await call(health.GET, '/api/health', { headers: (await createTenant()).headers })
    expect(res.json.models.chat).toMatchObject({ configured: false, endpoint: null })
    expect(res.json.models.chat.problem).toContain('OPENAI_API_KEY')
    expect(res.json.models.embeddings.configured).toBe(false)
  })

  test('the start log names the models and warns when agents cannot answer', async () => {
    process.env.LOG_LEVEL = 'info'
    delete process.env.OPENAI_API_KEY
    const lines: string[] = []
    vi.spyOn(console, 'log').mockImplementation(line => void lines.push(String(line)))
    vi.spyOn(console, 'error').mockImplementation(line => void lines.push(String(line)))
    await bootstrap({ web: true, worker: false })
    expect(lines.some(l => l.includes('"message":"models"') && l.includes('not configured'))).toBe(true)
    expect(lines.some(l => l.includes('agents cannot answer') && l.includes('OPENAI_API_KEY'))).toBe(true)

    lines.length = 0
    process.env.OPENAI_API_KEY = 'sk-secret-never-shown'
    await bootstrap({ web: true, worker: false })
    const models = lines.find(l => l.includes('"message":"models"'))!
    expect(models).toContain('gpt-4o-mini')
    expect(models).toContain('https://api.openai.com/v1')
    expect(lines.join('\n')).not.toContain('sk-secret')
  })
})
