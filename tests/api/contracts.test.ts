// Every endpoint answers what its route file declares (DESIGN.md §9): a valid request to each endpoint of the
// registry, against one organization with one of everything, succeeds, and its JSON success passes the endpoint's
// response schema strictly (no undocumented field, every required one present). The check itself is the wrapper's
// (lib/api/endpoint.ts, on in tests): a handler that adds a field its schema lacks answers 500 here.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { apiContracts } from '@/app/api/registry'
import { endpoint, endpoints, validatedEndpoints } from '@/lib/api/endpoint'
import { useFakeModel } from '../helpers/agents'
import { call } from '../helpers/http'
import { describeEndpoint, ENDPOINTS } from '../helpers/hardening/endpoints'
import { ownerCredentials, resolveParams, send, validProbe } from '../helpers/hardening/probe'
import { createTenantWorld, type TenantWorld } from '../helpers/hardening/world'
import { createTenant } from '../helpers/tenants'

process.env.LIMIT_PUBLIC_QUERIES_PER_MINUTE = '1000000'
const model = useFakeModel()
let own: TenantWorld
let other: TenantWorld

beforeAll(async () => {
  own = await createTenantWorld('contracts')
  other = await createTenantWorld('stranger')
  model.fake.setBehaviour({ reply: 'Two years.', delayMs: 0 })
  // GET /api/metrics answers the holder of METRICS_TOKEN: here the same Bearer value the tenant's requests carry
  process.env.METRICS_TOKEN = own.headers.authorization.replace(/^Bearer /, '')
})

afterAll(() => {
  delete process.env.METRICS_TOKEN
})

describe('every endpoint of the registry', () => {
  // destructive ones last, so that what they remove is not another endpoint's target
  const ordered = [...ENDPOINTS.filter(e => !e.file.includes('[...path]'))].sort((x, y) => Number(x.method === 'DELETE') - Number(y.method === 'DELETE'))
  for (const spec of ordered) {
    test(`${describeEndpoint(spec)} succeeds with what its declaration documents`, async () => {
      const probe = validProbe(spec, own)
      const { answer } = await send(spec, probe, await resolveParams(spec, probe, own, other), await ownerCredentials(spec, own))
      expect(answer.status, answer.text.slice(0, 500)).toBeGreaterThanOrEqual(200)
      expect(answer.status, answer.text.slice(0, 500)).toBeLessThan(300)
    })
  }

  afterAll(() => {
    const json = apiContracts().filter(c => !c.download)
    const unchecked = json.map(c => `${c.method} ${c.path}`).filter(key => !validatedEndpoints().has(key))
    expect(unchecked, 'endpoints whose JSON success was never checked against its schema').toEqual([])
  })
})

describe('the response check', () => {
  test.each([
    ['a field its schema lacks', z.strictObject({ id: z.string() }), { id: 'x', secret: 'leaked' }],
    ['without a required field', z.strictObject({ id: z.string(), name: z.string() }), { id: 'x' }],
  ])('a handler answering %s is a 500, never an undocumented answer', async (_, response, answer) => {
    const tenant = await createTenant()
    const { GET } = endpoints('/api/test-only', {
      GET: endpoint({ summary: 'A handler that does not answer what it declares', access: { scope: 'datastores:read' }, response, handler: async () => answer as never }),
    })
    const res = await call(GET, '/api/test-only', { headers: tenant.headers })
    expect(res.status).toBe(500)
  })
})
