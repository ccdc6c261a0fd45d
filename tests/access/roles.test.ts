// Roles are enforced on the API, from each endpoint's declared scope (DESIGN.md §10): for every endpoint of the
// registry and every role, a member's session is refused with 403 exactly when the role lacks the endpoint's scope.
import { encode } from 'next-auth/jwt'
import { beforeAll, describe, expect, test } from 'vitest'
import { getPrisma } from '@/lib/db/client'
import { ROLE_SCOPES, ROLES, type Role } from '@/lib/domain/access'
import { useFakeModel } from '../helpers/agents'
import { expectErrorBody } from '../helpers/http'
import { describeEndpoint, ENDPOINTS, fileOf } from '../helpers/hardening/endpoints'
import { resolveParams, send, validProbe } from '../helpers/hardening/probe'
import { createTenantWorld, type TenantWorld } from '../helpers/hardening/world'
import { apiContracts } from '@/app/api/registry'

process.env.LIMIT_PUBLIC_QUERIES_PER_MINUTE = '1000000'
const model = useFakeModel()
let world: TenantWorld
let stranger: TenantWorld
const sessions = {} as Record<Role, Record<string, string>>

beforeAll(async () => {
  world = await createTenantWorld('roles')
  stranger = await createTenantWorld('stranger')
  const prisma = await getPrisma()
  for (const role of ROLES) {
    const user = await prisma.user.create({ data: { email: `${role}-${Date.now()}@example.com`, passwordHash: 'x' } })
    await prisma.membership.create({ data: { organizationId: world.ctx.organizationId, userId: user.id, role } })
    const token = await encode({ token: { sub: user.id }, secret: process.env.NEXTAUTH_SECRET! })
    sessions[role] = { cookie: `next-auth.session-token=${token}`, origin: 'http://localhost', 'sec-fetch-site': 'same-origin' }
  }
})

const scoped = apiContracts().flatMap(c => (c.access === 'public' ? [] : [{ contract: c, scope: c.access.scope, spec: ENDPOINTS.find(e => e.file === fileOf(c.path) && e.method === c.method)! }]))

describe('the roles matrix', () => {
  for (const { spec, scope } of scoped) {
    test(`${describeEndpoint(spec)} (${scope}): 403 for the roles without it, and only for those`, async () => {
      model.fake.setBehaviour({ reply: 'Two years.', delayMs: 0 })
      for (const role of ROLES) {
        const probe = validProbe(spec, world)
        const { answer } = await send(spec, probe, await resolveParams(spec, probe, world, stranger), sessions[role])
        const where = `${role} → ${answer.status} ${answer.text.slice(0, 200)}`
        if (ROLE_SCOPES[role].includes(scope)) expect(answer.status, where).not.toBe(403)
        else {
          expect(answer.status, where).toBe(403)
          expectErrorBody(answer.json, 'forbidden')
        }
      }
    })
  }
})
