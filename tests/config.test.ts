import { afterEach, describe, expect, it, vi } from 'vitest'

// lib/config.ts: the settings are validated once and cached; tests change them between cases, the production server
// never does (its settings are read once, issue 28: checking every setting on each call was 2 % of its CPU)

async function freshConfig() {
  vi.resetModules()
  return (await import('@/lib/config')).config
}

describe('settings', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
    vi.resetModules()
  })

  it('are read again when one changes, outside production', async () => {
    vi.stubEnv('NODE_ENV', 'test')
    vi.stubEnv('AGENT_TOP_K', '7')
    const config = await freshConfig()
    expect(config().AGENT_TOP_K).toBe(7)
    vi.stubEnv('AGENT_TOP_K', '9')
    expect(config().AGENT_TOP_K).toBe(9)
  })

  it('are read once by the production server', async () => {
    vi.stubEnv('NODE_ENV', 'production')
    vi.stubEnv('AGENT_TOP_K', '7')
    const config = await freshConfig()
    expect(config().AGENT_TOP_K).toBe(7)
    vi.stubEnv('AGENT_TOP_K', '9')
    expect(config().AGENT_TOP_K).toBe(7)
  })

  it('refuse an invalid value with the setting named', async () => {
    vi.stubEnv('NODE_ENV', 'production')
    vi.stubEnv('AGENT_TOP_K', 'many')
    const config = await freshConfig()
    expect(() => config()).toThrow(/AGENT_TOP_K/)
  })
})
