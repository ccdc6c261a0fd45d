// Invitations (issue 24): the token is the credential, kept only as a hash, for 7 days and one use; revocable;
// mailed when SMTP_URL is set; an existing account joins from its own session only.
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as accept from '@/app/api/invitations/[id]/accept/route'
import * as invitationItem from '@/app/api/invitations/[id]/route'
import * as invitations from '@/app/api/invitations/route'
import * as organizations from '@/app/api/organizations/route'
import { getPrisma } from '@/lib/db/client'
import { call, expectErrorBody } from '../helpers/http'
import { createTenantWorld, sessionOf, type TenantWorld } from '../helpers/hardening/world'

let world: TenantWorld
let stranger: TenantWorld
let n = 0
const fresh = () => `person-${Date.now()}-${++n}@example.com`

beforeAll(async () => {
  world = await createTenantWorld('invitations')
  stranger = await createTenantWorld('stranger')
})

const invite = (body: unknown, headers = world.session) => call(invitations.POST, '/api/invitations', { method: 'POST', headers, body })
const acceptWith = (token: string, body: unknown, headers: Record<string, string> = {}) =>
  call(accept.POST, `/api/invitations/${token}/accept`, { method: 'POST', headers, body, params: { id: token } })
const pending = (headers = world.session) => call(invitations.GET, '/api/invitations', { headers })

describe('invitations', () => {
  test('the token is stored only as its hash, and the pending list never shows it', async () => {
    const created = await invite({ email: fresh(), role: 'operator' })
    const prisma = await getPrisma()
    const row = await prisma.invitation.findUniqueOrThrow({ where: { id: created.json.id } })
    expect(JSON.stringify(row)).not.toContain(created.json.token)
    const listed = await pending()
    expect(listed.json.map((i: { id: string }) => i.id)).toContain(created.json.id)
    expect(listed.text).not.toContain(created.json.token)
  })

  test('an expired invitation cannot be accepted (409 with the error body)', async () => {
    const created = await invite({ email: fresh(), role: 'viewer' })
    const prisma = await getPrisma()
    await prisma.invitation.update({ where: { id: created.json.id }, data: { expiresAt: new Date(Date.now() - 1000) } })
    const res = await acceptWith(created.json.token, { name: 'Late', password: 'late password 123' })
    expect(res.status).toBe(409)
    expectErrorBody(res.json, 'conflict')
    expect(await prisma.user.count({ where: { email: created.json.email } })).toBe(0)
  })

  test('a revoked invitation leaves the pending list and its link no longer works', async () => {
    const created = await invite({ email: fresh(), role: 'viewer' })
    const revoked = await call(invitationItem.DELETE, `/api/invitations/${created.json.id}`, { method: 'DELETE', headers: world.session, params: { id: created.json.id } })
    expect(revoked.status).toBe(200)
    expect(revoked.json.revokedAt).not.toBeNull()
    expect((await pending()).json.map((i: { id: string }) => i.id)).not.toContain(created.json.id)
    expect((await acceptWith(created.json.token, { name: 'Too late', password: 'a password 1234' })).status).toBe(409)
  })

  test("another organization's invitation is 404 to revoke, and its pending ones are not listed", async () => {
    const theirs = await invite({ email: fresh(), role: 'viewer' }, stranger.session)
    const res = await call(invitationItem.DELETE, `/api/invitations/${theirs.json.id}`, { method: 'DELETE', headers: world.session, params: { id: theirs.json.id } })
    expect(res.status).toBe(404)
    expectErrorBody(res.json, 'not_found')
    expect((await pending()).json.map((i: { id: string }) => i.id)).not.toContain(theirs.json.id)
  })

  test('an unknown token is 404, and accepting without a name and password is 400', async () => {
    expect((await acceptWith('inv_not-a-token', { name: 'X', password: 'a password 1234' })).status).toBe(404)
    const created = await invite({ email: fresh(), role: 'viewer' })
    const res = await acceptWith(created.json.token, {})
    expect(res.status).toBe(400)
    expectErrorBody(res.json, 'invalid_request')
  })

  test('an admin cannot invite an owner; an owner can', async () => {
    const prisma = await getPrisma()
    const adminUser = await prisma.user.create({ data: { email: fresh(), passwordHash: 'x' } })
    await prisma.membership.create({ data: { organizationId: world.ctx.organizationId, userId: adminUser.id, role: 'admin' } })
    const asAdmin = await invite({ email: fresh(), role: 'owner' }, await sessionOf(adminUser.id))
    expect(asAdmin.status).toBe(403)
    expectErrorBody(asAdmin.json, 'forbidden')
    expect((await invite({ email: fresh(), role: 'owner' })).status).toBe(201)
  })

  test('a member already in the organization is not invited again (400)', async () => {
    const prisma = await getPrisma()
    const member = await prisma.user.findUniqueOrThrow({ where: { id: world.memberUserId } })
    const res = await invite({ email: member.email, role: 'viewer' })
    expect(res.status).toBe(400)
    expectErrorBody(res.json, 'invalid_request')
  })
})

describe('an existing account joins another organization', () => {
  test('with its own signed-in session it joins, keeping its password; the token alone does not add it', async () => {
    const prisma = await getPrisma()
    const user = await prisma.user.findUniqueOrThrow({ where: { id: stranger.userId } })
    const created = await invite({ email: user.email, role: 'editor' })
    const anonymous = await acceptWith(created.json.token, { name: 'Impostor', password: 'impostor password' })
    expect(anonymous.status).toBe(401)
    expectErrorBody(anonymous.json, 'unauthorized')
    const joined = await acceptWith(created.json.token, {}, stranger.session)
    expect(joined.status, joined.text).toBe(200)
    expect(joined.json).toMatchObject({ organizationId: world.ctx.organizationId, role: 'editor', accountCreated: false })
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash).toBe(user.passwordHash)
    const listed = await call(organizations.GET, '/api/organizations', { headers: stranger.session })
    expect(listed.json.map((o: { id: string; role: string }) => [o.id, o.role])).toEqual([
      [stranger.ctx.organizationId, 'owner'],
      [world.ctx.organizationId, 'editor'],
    ])
  })
})

describe('with SMTP_URL set', () => {
  const received: { to: string[]; data: string }[] = []
  let server: SMTPServer

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, done) {
        let data = ''
        stream.on('data', chunk => (data += chunk))
        stream.on('end', () => (received.push({ to: session.envelope.rcptTo.map(r => r.address), data }), done()))
      },
    })
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    process.env.SMTP_URL = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`
  })

  afterAll(async () => {
    delete process.env.SMTP_URL
    await new Promise<void>(resolve => server.close(() => resolve()))
  })

  test('the invitation is mailed to the invitee with its link, and still answered to copy', async () => {
    const to = fresh()
    const created = await invite({ email: to, role: 'viewer' })
    expect(created.status).toBe(201)
    expect(created.json.mailed).toBe(true)
    const mail = received.find(m => m.to.includes(to))
    expect(mail).toBeDefined()
    // quoted-printable may fold long lines: compare without the soft breaks
    expect(mail!.data.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).toContain(created.json.url)
  })
})
