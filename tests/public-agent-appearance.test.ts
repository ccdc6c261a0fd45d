import { describe, expect, test } from 'vitest'
import * as agentItem from '@/app/api/agents/[id]/route'
import { APPEARANCE_DEFAULTS, mergeAppearance, resolveAppearance, visibleSources } from '@/lib/agents/appearance'
import { getPrisma } from '@/lib/db/client'
import { createAgentVia, getAgentVia, useFakeModel } from './helpers/agents'
import { call, expectErrorBody } from './helpers/http'
import { createTenant } from './helpers/tenants'

// An agent's public face (issue 14): every theming field is validated, has a documented default, and comes back as
// it was stored, to its organization and to anyone for a public agent.

useFakeModel()

const patch = (id: string, headers: Record<string, string>, body: unknown) =>
  call(agentItem.PATCH, `/api/agents/${id}`, { method: 'PATCH', headers, body, params: { id } })

const THEMED = {
  displayName: 'Kettle help',
  avatarUrl: 'https://cdn.example.com/kettle.png',
  primaryColor: '#0F766E',
  colorScheme: 'dark',
  bubblePosition: 'bottom-left',
  welcomeMessage: 'Hello! Ask me about kettles.',
  suggestedQuestions: ['How long is the warranty?', 'Where is the descaler?'],
  sourcesVisibility: 'none',
  pageTitle: 'Kettle support',
  humanHandoff: false,
  markResolved: false,
  handoffMessage: 'Someone from the kettle team will answer here.',
}

// one valid value and the invalid ones of each field
const CASES: Record<keyof typeof APPEARANCE_DEFAULTS, { valid: unknown; invalid: unknown[] }> = {
  displayName: { valid: 'Aurora', invalid: ['x'.repeat(81), 42] },
  avatarUrl: { valid: 'data:image/png;base64,iVBORw0KGgo=', invalid: ['http://insecure.example/a.png', 'javascript:alert(1)', 'not a url'] },
  primaryColor: { valid: '#abcdef', invalid: ['red', '#abc', '#12345g', null] },
  colorScheme: { valid: 'dark', invalid: ['blue', null] },
  bubblePosition: { valid: 'bottom-left', invalid: ['top-left', null] },
  welcomeMessage: { valid: 'Welcome', invalid: ['', '   ', 'x'.repeat(501), null] },
  suggestedQuestions: { valid: ['One?', 'Two?', 'Three?', 'Four?'], invalid: [['1', '2', '3', '4', '5'], [''], ['x'.repeat(201)], 'one'] },
  sourcesVisibility: { valid: 'full', invalid: ['some', null] },
  pageTitle: { valid: 'Help', invalid: ['x'.repeat(121), 7] },
  humanHandoff: { valid: false, invalid: ['yes', null] },
  markResolved: { valid: false, invalid: [1, null] },
  handoffMessage: { valid: 'Someone will answer soon.', invalid: ['', 'x'.repeat(501), null] },
}

describe('an agent’s theme', () => {
  test('a new agent wears the documented defaults', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    expect(agent.appearance).toEqual({
      displayName: null,
      avatarUrl: null,
      primaryColor: '#2563eb',
      colorScheme: 'light',
      bubblePosition: 'bottom-right',
      welcomeMessage: 'Hi! How can I help?',
      suggestedQuestions: [],
      sourcesVisibility: 'titles',
      pageTitle: null,
      humanHandoff: true,
      markResolved: true,
      handoffMessage: 'A person from the team has this conversation and will reply here shortly.',
    })
    expect(agent.allowedDomains).toEqual([])
    expect(agent.requireSignedVisitors).toBe(false)
    expect(agent.visitorSecretPrefix).toBeNull()
  })

  test('every field round-trips through create, read and the public read', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant, { visibility: 'public', appearance: THEMED })
    const expected = { ...THEMED, primaryColor: '#0f766e' }
    expect(agent.appearance).toEqual(expected)
    expect((await getAgentVia(agent.id, tenant.headers)).json.appearance).toEqual(expected)
    expect((await getAgentVia(agent.id)).json.appearance).toEqual(expected)
  })

  test('PATCH replaces the fields it gives, keeps the others, and null returns a field to its default', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant, { appearance: THEMED })
    const res = await patch(agent.id, tenant.headers, { description: '', appearance: { welcomeMessage: 'Hi again', displayName: null } })
    expect(res.status).toBe(200)
    expect(res.json.appearance).toEqual({ ...THEMED, primaryColor: '#0f766e', welcomeMessage: 'Hi again', displayName: null })
  })

  for (const [field, { valid, invalid }] of Object.entries(CASES)) {
    test(`${field}: a valid value is kept, an invalid one is a 400 naming the field`, async () => {
      const tenant = await createTenant()
      const agent = await createAgentVia(tenant)
      const ok = await patch(agent.id, tenant.headers, { description: '', appearance: { [field]: valid } })
      expect(ok.status).toBe(200)
      expect(ok.json.appearance[field]).toEqual(valid)
      for (const value of invalid) {
        const bad = await patch(agent.id, tenant.headers, { description: '', appearance: { [field]: value } })
        expect(bad.status, JSON.stringify(value)).toBe(400)
        expectErrorBody(bad.json, 'invalid_request')
        expect(JSON.stringify(bad.json.error.details)).toContain(`appearance.${field}`)
      }
    })
  }

  test('an empty optional text clears it, like null', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant, { appearance: { pageTitle: 'Title', avatarUrl: 'https://a.example/x.png' } })
    const res = await patch(agent.id, tenant.headers, { description: '', appearance: { pageTitle: '  ', avatarUrl: '' } })
    expect(res.json.appearance).toMatchObject({ pageTitle: null, avatarUrl: null })
  })

  test('a stored value written under older rules reads as its default instead of failing', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    const prisma = await getPrisma()
    await prisma.agent.update({ where: { id: agent.id }, data: { appearance: { primaryColor: 'teal', welcomeMessage: 'Still here' } } })
    const res = await getAgentVia(agent.id, tenant.headers)
    expect(res.json.appearance).toMatchObject({ primaryColor: '#2563eb', welcomeMessage: 'Still here' })
  })

  test('resolve, merge and visible sources are pure', () => {
    expect(resolveAppearance(null)).toEqual(APPEARANCE_DEFAULTS)
    expect(mergeAppearance({ pageTitle: 'A' }, { pageTitle: null, colorScheme: 'dark' })).toEqual({ colorScheme: 'dark' })
    const sources = [{ text: 'secret text', score: 0.9, source: 'a.md', datasource_id: 'd1', datasource_name: 'a.md' }]
    expect(visibleSources(sources, 'full')).toEqual(sources)
    expect(visibleSources(sources, 'titles')).toEqual([{ ...sources[0], text: '' }])
    expect(visibleSources(sources, 'none')).toEqual([])
  })
})
