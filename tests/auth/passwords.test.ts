import { encode } from 'next-auth/jwt'
import { describe, expect, test } from 'vitest'
import * as account from '@/app/api/account/route'
import * as accountPassword from '@/app/api/account/password/route'
import * as passwordReset from '@/app/api/members/[userId]/password-reset/route'
import * as passwordResets from '@/app/api/password-resets/[token]/route'
import { getPrisma } from '@/lib/db/client'
import type { Role } from '@/lib/domain/access'
import { call, expectErrorBody } from '../helpers/http'
import { memberWithPassword, signInFrom } from '../helpers/sign-in'
import { createTenant } from '../helpers/tenants'

// Issue 24: a signed-in user changes their password; an admin makes a reset link for a member, which the member uses
// once. Either way the user's earlier sessions end.

const OLD = 'the old password 1'
const NEW = 'the new password 2'

async function sessionOf(userId: string): Promise<Record<string, string>> {
  const prisma = await getPrisma()
  const { sessionVersion } = await prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { sessionVersion: true } })
  const token = await encode({ token: { sub: userId, sv: sessionVersion }, secret: process.env.NEXTAUTH_SECRET! })
  return { cookie: `next-auth.session-token=${token}`, 'sec-fetch-site': 'same-origin' }
}

/** A second member of the organization, with a role and a password. */
async function colleague(organizationId: string, role: Role) {
  const other = await memberWithPassword(OLD)
  const prisma = await getPrisma()
  await prisma.membership.deleteMany({ where: { userId: other.user.id } })
  await prisma.membership.create({ data: { organizationId, userId: other.user.id, role } })
  return other
}

const changePassword = (headers: Record<string, string>, body: unknown) => call(accountPassword.POST, '/api/account/password', { method: 'POST', headers, body })
const resetLink = (headers: Record<string, string>, userId: string) =>
  call(passwordReset.POST, `/api/members/${userId}/password-reset`, { method: 'POST', headers, params: { userId } })
const useLink = (token: string, password: string) => call(passwordResets.POST, `/api/password-resets/${token}`, { method: 'POST', body: { password }, params: { token } })
const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!

describe('changing one\'s password', () => {
  test('a wrong current password is a 400 with the error body, and changes nothing', async () => {
    const { user, email } = await memberWithPassword(OLD)
    const res = await changePassword(await sessionOf(user.id), { currentPassword: 'not it at all', newPassword: NEW })
    expect(res.status).toBe(400)
    expectErrorBody(res.json, 'invalid_request')
    expect(res.json.error.details[0].path).toBe('currentPassword')
    expect(await signInFrom('203.0.113.1', email, OLD)).toBe('signed in')
  })

  test('a new password shorter than 8 characters is a 400', async () => {
    const { user } = await memberWithPassword(OLD)
    const res = await changePassword(await sessionOf(user.id), { currentPassword: OLD, newPassword: 'short' })
    expect(res.status).toBe(400)
    expectErrorBody(res.json, 'invalid_request')
  })

  test('the new password signs in, the old one no longer, and sessions made before end', async () => {
    const { user, email } = await memberWithPassword(OLD)
    const before = await sessionOf(user.id)
    const res = await changePassword(before, { currentPassword: OLD, newPassword: NEW })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ id: user.id, email, role: 'owner' })
    expect((await call(account.GET, '/api/account', { headers: before })).status).toBe(401)
    expect(await signInFrom('203.0.113.2', email, OLD)).toBe('wrong')
    expect(await signInFrom('203.0.113.2', email, NEW)).toBe('signed in')
    expect((await call(account.GET, '/api/account', { headers: await sessionOf(user.id) })).status).toBe(200)
  })

  test('the change is audited', async () => {
    const { user, email, organizationId } = await memberWithPassword(OLD)
    await changePassword(await sessionOf(user.id), { currentPassword: OLD, newPassword: NEW })
    const prisma = await getPrisma()
    const entry = await prisma.auditEntry.findFirst({ where: { organizationId, action: 'account.password' } })
    expect(entry).toMatchObject({ actorId: user.id, actorLabel: email, targetType: 'account', targetId: user.id })
  })

  test('an API key has no password to change: 403', async () => {
    const tenant = await createTenant()
    const res = await changePassword(tenant.headers, { currentPassword: OLD, newPassword: NEW })
    expect(res.status).toBe(403)
    expectErrorBody(res.json, 'forbidden')
  })
})

describe("an admin's reset link", () => {
  test('the link sets the password once; a second use is a 404 with the error body', async () => {
    const admin = await memberWithPassword(OLD, 'admin')
    const member = await colleague(admin.organizationId, 'editor')
    const memberSession = await sessionOf(member.user.id)
    const link = await resetLink(await sessionOf(admin.user.id), member.user.id)
    expect(link.status).toBe(201)
    const expiresIn = Date.parse(link.json.expiresAt) - Date.now()
    expect(expiresIn).toBeGreaterThan(23.9 * 3600_000)
    expect(expiresIn).toBeLessThanOrEqual(24 * 3600_000)
    const used = await useLink(tokenOf(link.json.url), NEW)
    expect(used).toMatchObject({ status: 200, json: { email: member.email } })
    expect(await signInFrom('203.0.113.3', member.email, NEW)).toBe('signed in')
    // the member's earlier sessions end
    expect((await call(account.GET, '/api/account', { headers: memberSession })).status).toBe(401)
    const again = await useLink(tokenOf(link.json.url), 'yet another password')
    expect(again.status).toBe(404)
    expectErrorBody(again.json, 'not_found')
    expect(await signInFrom('203.0.113.3', member.email, NEW)).toBe('signed in')
  })

  test('the token is stored hashed, never in clear', async () => {
    const admin = await memberWithPassword(OLD, 'admin')
    const member = await colleague(admin.organizationId, 'viewer')
    const link = await resetLink(await sessionOf(admin.user.id), member.user.id)
    const prisma = await getPrisma()
    const rows = await prisma.passwordReset.findMany({ where: { userId: member.user.id } })
    expect(rows).toHaveLength(1)
    expect(JSON.stringify(rows)).not.toContain(tokenOf(link.json.url))
  })

  test('an expired link is refused', async () => {
    const admin = await memberWithPassword(OLD, 'admin')
    const member = await colleague(admin.organizationId, 'viewer')
    const link = await resetLink(await sessionOf(admin.user.id), member.user.id)
    const prisma = await getPrisma()
    await prisma.passwordReset.updateMany({ where: { userId: member.user.id }, data: { expiresAt: new Date(Date.now() - 1000) } })
    expect((await useLink(tokenOf(link.json.url), NEW)).status).toBe(404)
    expect(await signInFrom('203.0.113.4', member.email, OLD)).toBe('signed in')
  })

  test('a new link replaces the member\'s unused one', async () => {
    const admin = await memberWithPassword(OLD, 'admin')
    const member = await colleague(admin.organizationId, 'viewer')
    const first = await resetLink(await sessionOf(admin.user.id), member.user.id)
    await resetLink(await sessionOf(admin.user.id), member.user.id)
    expect((await useLink(tokenOf(first.json.url), NEW)).status).toBe(404)
  })

  test("another organization's member is a 404", async () => {
    const admin = await memberWithPassword(OLD, 'admin')
    const stranger = await memberWithPassword(OLD, 'viewer')
    const res = await resetLink(await sessionOf(admin.user.id), stranger.user.id)
    expect(res.status).toBe(404)
    expectErrorBody(res.json, 'not_found')
  })

  test('an editor may not make one: 403', async () => {
    const editor = await memberWithPassword(OLD, 'editor')
    const member = await colleague(editor.organizationId, 'viewer')
    expect((await resetLink(await sessionOf(editor.user.id), member.user.id)).status).toBe(403)
  })

  test("an owner's password is reset by an owner only", async () => {
    const owner = await memberWithPassword(OLD, 'owner')
    const admin = await colleague(owner.organizationId, 'admin')
    const res = await resetLink(await sessionOf(admin.user.id), owner.user.id)
    expect(res.status).toBe(403)
    expectErrorBody(res.json, 'forbidden')
    const coOwner = await colleague(owner.organizationId, 'owner')
    expect((await resetLink(await sessionOf(coOwner.user.id), owner.user.id)).status).toBe(201)
  })

  test('a member of other organizations too is not reset by one of them', async () => {
    const admin = await memberWithPassword(OLD, 'admin')
    const member = await memberWithPassword(OLD, 'viewer')
    const prisma = await getPrisma()
    await prisma.membership.create({ data: { organizationId: admin.organizationId, userId: member.user.id, role: 'viewer' } })
    expect((await resetLink(await sessionOf(admin.user.id), member.user.id)).status).toBe(403)
  })

  test('making and using the link are audited', async () => {
    const admin = await memberWithPassword(OLD, 'admin')
    const member = await colleague(admin.organizationId, 'viewer')
    const link = await resetLink(await sessionOf(admin.user.id), member.user.id)
    await useLink(tokenOf(link.json.url), NEW)
    const prisma = await getPrisma()
    const entries = await prisma.auditEntry.findMany({ where: { organizationId: admin.organizationId, action: { in: ['member.password_reset', 'auth.password_reset'] } }, orderBy: { createdAt: 'asc' } })
    expect(entries).toMatchObject([
      { action: 'member.password_reset', actorLabel: admin.email, targetType: 'member', targetId: member.user.id },
      { action: 'auth.password_reset', actorLabel: member.email, targetType: 'user', targetName: member.email },
    ])
  })
})
