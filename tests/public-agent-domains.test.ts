import { NextRequest } from 'next/server'
import { beforeEach, describe, expect, test } from 'vitest'
import * as agentItem from '@/app/api/agents/[id]/route'
import { checkOrigin, frameAncestorsPolicy, originAllowed } from '@/lib/agents/allowed-domains'
import { resetPublicQueryLimits } from '@/lib/rate-limit/public-queries'
import { proxy } from '@/proxy'
import { createAgentVia, getAgentVia, queryAgentVia, useFakeModel } from './helpers/agents'
import { call, expectErrorBody } from './helpers/http'
import { createTenant } from './helpers/tenants'

// The domain allow-list (issue 14): a public agent with listed domains is framed by their pages only (the chat page's
// Content-Security-Policy) and refuses browser queries from other origins with one error shape; empty means anywhere.

const model = useFakeModel()
beforeEach(() => {
  resetPublicQueryLimits()
  model.fake.setBehaviour({ reply: 'Hello.' })
})

const patch = (id: string, headers: Record<string, string>, body: unknown) =>
  call(agentItem.PATCH, `/api/agents/${id}`, { method: 'PATCH', headers, body, params: { id } })

describe('the domain allow-list', () => {
  test('a listed origin may query; another is refused with 403 origin_not_allowed, before the model is asked', async () => {
    const owner = await createTenant()
    const agent = await createAgentVia(owner, { visibility: 'public', allowedDomains: ['shop.example.com', '*.example.org'] })
    expect(agent.allowedDomains).toEqual(['shop.example.com', '*.example.org'])
    expect((await queryAgentVia(agent.id, { query: 'Hi' }, { origin: 'https://shop.example.com' })).status).toBe(200)
    expect((await queryAgentVia(agent.id, { query: 'Hi' }, { origin: 'https://help.example.org' })).status).toBe(200)
    const refused = await queryAgentVia(agent.id, { query: 'Hi', streaming: true }, { origin: 'https://evil.example.net' })
    expect(refused.status).toBe(403)
    expectErrorBody(refused.json, 'origin_not_allowed')
    expect(refused.json.error).toEqual({
      code: 'origin_not_allowed',
      message: 'This agent cannot be used from https://evil.example.net: the site is not in its list of allowed domains',
      details: { origin: 'https://evil.example.net' },
      requestId: refused.headers.get('x-request-id'),
    })
    // the agent's read, which the bubble makes first, is refused the same way
    const read = await getAgentVia(agent.id, { origin: 'https://evil.example.net' })
    expect(read.status).toBe(403)
    expect(read.json.error.code).toBe('origin_not_allowed')
    expect(model.fake.chatRequests()).toHaveLength(2)
  })

  test('empty means anywhere; no Origin (a server) and the service’s own pages always pass; members are not checked', async () => {
    const owner = await createTenant()
    const open = await createAgentVia(owner, { visibility: 'public' })
    expect((await queryAgentVia(open.id, { query: 'Hi' }, { origin: 'https://anyone.example' })).status).toBe(200)
    const listed = await createAgentVia(owner, { visibility: 'public', allowedDomains: ['example.com'] })
    expect((await queryAgentVia(listed.id, { query: 'Hi' })).status).toBe(200)
    expect((await queryAgentVia(listed.id, { query: 'Hi' }, { origin: 'http://agents.local:3000', host: 'agents.local:3000' })).status).toBe(200)
    expect((await queryAgentVia(listed.id, { query: 'Hi' }, { origin: 'https://other.example', ...owner.headers })).status).toBe(200)
  })

  test('entries are validated and normalised', async () => {
    const owner = await createTenant()
    const agent = await createAgentVia(owner)
    const ok = await patch(agent.id, owner.headers, { description: '', allowedDomains: ['Example.COM/', 'https://a.example.com', 'localhost:4201', 'example.com'] })
    expect(ok.status).toBe(200)
    expect(ok.json.allowedDomains).toEqual(['example.com', 'https://a.example.com', 'localhost:4201'])
    for (const bad of [['https://example.com/path'], ['exa mple.com'], ['*'], ['ftp://example.com'], Array(51).fill('a.example')]) {
      const res = await patch(agent.id, owner.headers, { description: '', allowedDomains: bad })
      expect(res.status, JSON.stringify(bad).slice(0, 60)).toBe(400)
      expectErrorBody(res.json, 'invalid_request')
    }
  })

  test('matching: hosts, subdomain wildcards, schemes and ports', () => {
    expect(originAllowed(['example.com'], 'https://example.com')).toBe(true)
    expect(originAllowed(['example.com'], 'http://example.com:8080')).toBe(true)
    expect(originAllowed(['example.com'], 'https://www.example.com')).toBe(false)
    expect(originAllowed(['*.example.com'], 'https://www.example.com')).toBe(true)
    expect(originAllowed(['*.example.com'], 'https://example.com')).toBe(false)
    expect(originAllowed(['*.example.com'], 'https://evilexample.com')).toBe(false)
    expect(originAllowed(['https://example.com'], 'http://example.com')).toBe(false)
    expect(originAllowed(['127.0.0.1:4201'], 'http://127.0.0.1:4202')).toBe(false)
    expect(originAllowed(['example.com'], 'null')).toBe(false)
    expect(() => checkOrigin([], { origin: 'https://x.example', ownHosts: [] })).not.toThrow()
    expect(() => checkOrigin(['a.example'], { origin: 'https://agents.example', ownHosts: ['127.0.0.1:3000', 'agents.example'] })).not.toThrow()
    expect(() => checkOrigin(['a.example'], { origin: 'https://b.example', ownHosts: ['agents.example'] })).toThrow('not in its list')
  })

  test('the chat page is served with frame-ancestors of the list, or no policy (any page) when it is empty', async () => {
    expect(frameAncestorsPolicy([])).toBeNull()
    expect(frameAncestorsPolicy(['example.com', 'https://*.example.org', '127.0.0.1:4201'])).toBe(
      "frame-ancestors 'self' https://example.com:* http://example.com:* https://*.example.org:* https://127.0.0.1:4201 http://127.0.0.1:4201",
    )
    const owner = await createTenant()
    const listed = await createAgentVia(owner, { visibility: 'public', allowedDomains: ['example.com'] })
    const open = await createAgentVia(owner, { visibility: 'public' })
    const privateAgent = await createAgentVia(owner)
    const csp = async (id: string) => (await proxy(new NextRequest(`http://localhost/chat/${id}`))).headers.get('content-security-policy')
    expect(await csp(listed.id)).toBe("frame-ancestors 'self' https://example.com:* http://example.com:*")
    expect(await csp(open.id)).toBeNull()
    expect(await csp(privateAgent.id)).toBe("frame-ancestors 'self'")
  })
})
