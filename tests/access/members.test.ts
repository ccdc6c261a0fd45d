// Members' roles changed and members removed (issue 24): ownership is the owners' to give, an organization keeps an
// owner, and another organization's member is 404.
import { beforeAll, describe, expect, test } from 'vitest'
import * as memberItem from '@/app/api/members/[userId]/route'
import * as datastores from '@/app/api/datastores/route'
import { getPrisma } from '@/lib/db/client'
import type { Role } from '@/lib/domain/access'
import { call, expectErrorBody } from '../helpers/http'
import { createTenantWorld, sessionOf, type TenantWorld } from '../helpers/hardening/world'

let world: TenantWorld
let stranger: TenantWorld
let admin: Record<string, string>

async function addMember(role: Role, organizationId = world.ctx.organizationId): Promise<string> {
  const prisma = await getPrisma()
  const user = await prisma.user.create({ data: { email: `${role}-${Date.now()}-${Math.random()}@example.com`, passwordHash: 'x' } })
  await prisma.membership.create({ data: { organizationId, userId: user.id, role } })
  return user.id
}

beforeAll(async () => {
  world = await createTenantWorld('members')
  stranger = await createTenantWorld('stranger')
  admin = await sessionOf(await addMember('admin'))
})

const patch = (userId: string, role: Role, headers = world.session) => call(memberItem.PATCH, `/api/members/${userId}`, { method: 'PATCH', headers, body: { role }, params: { userId } })
const remove = (userId: string, headers = world.session) => call(memberItem.DELETE, `/api/members/${userId}`, { method: 'DELETE', headers, params: { userId } })

describe("a member's role", () => {
  test('an admin changes an editor into an operator', async () => {
    const userId = await addMember('editor')
    const res = await patch(userId, 'operator', admin)
    expect(res.status, res.text).toBe(200)
    expect(res.json).toMatchObject({ id: userId, role: 'operator' })
  })

  test('an admin cannot make someone owner, nor demote an owner; an owner can', async () => {
    const userId = await addMember('editor')
    const asAdmin = await patch(userId, 'owner', admin)
    expect(asAdmin.status).toBe(403)
    expectErrorBody(asAdmin.json, 'forbidden')
    expect((await patch(world.userId, 'admin', admin)).status).toBe(403)
    expect((await patch(userId, 'owner')).json.role).toBe('owner')
  })

  test('the last owner cannot be demoted or removed: 409 with the error body', async () => {
    const org = await createTenantWorld('lone owner')
    const demoted = await patch(org.userId, 'admin', org.session)
    expect(demoted.status).toBe(409)
    expectErrorBody(demoted.json, 'conflict')
    const removed = await remove(org.userId, org.session)
    expect(removed.status).toBe(409)
    expectErrorBody(removed.json, 'conflict')
    const prisma = await getPrisma()
    expect((await prisma.membership.findFirstOrThrow({ where: { organizationId: org.ctx.organizationId, userId: org.userId } })).role).toBe('owner')
  })

  test('two owners demoting each other at once leave one owner', async () => {
    const org = await createTenantWorld('two owners')
    const second = await addMember('owner', org.ctx.organizationId)
    const answers = await Promise.all([patch(second, 'admin', org.session), patch(org.userId, 'admin', await sessionOf(second))])
    // one wins; the other is refused: the last owner (409), or no longer an owner by the time it is decided (403)
    const [won, refused] = answers.map(a => a.status).sort()
    expect(won).toBe(200)
    expect([403, 409]).toContain(refused)
    const prisma = await getPrisma()
    expect(await prisma.membership.count({ where: { organizationId: org.ctx.organizationId, role: 'owner' } })).toBe(1)
  })

  test("another organization's member is 404, and stays as it was", async () => {
    const res = await patch(stranger.memberUserId, 'viewer')
    expect(res.status).toBe(404)
    expectErrorBody(res.json, 'not_found')
    expect((await remove(stranger.memberUserId)).status).toBe(404)
    const prisma = await getPrisma()
    expect((await prisma.membership.findFirstOrThrow({ where: { userId: stranger.memberUserId } })).role).toBe('editor')
  })
})

describe('removing a member', () => {
  test('a removed member keeps the account but their session no longer reads the organization', async () => {
    const userId = await addMember('editor')
    const session = await sessionOf(userId)
    expect((await call(datastores.GET, '/api/datastores', { headers: session })).status).toBe(200)
    const res = await remove(userId, admin)
    expect(res.status).toBe(200)
    expect(res.json.id).toBe(userId)
    expect((await call(datastores.GET, '/api/datastores', { headers: session })).status).toBe(401)
    const prisma = await getPrisma()
    expect(await prisma.user.count({ where: { id: userId } })).toBe(1)
  })

  test('an admin cannot remove an owner', async () => {
    const owner = await addMember('owner')
    const res = await remove(owner, admin)
    expect(res.status).toBe(403)
    expectErrorBody(res.json, 'forbidden')
  })
})
