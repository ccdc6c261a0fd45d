// Issue 24's first acceptance point, over the routes: an admin invites an editor and a viewer; each accepts once and
// signs in through /api/auth/callback/credentials; the members list shows them with their roles; the API enforces
// what each role may do; the audit log names the invitees and the editor.
import { beforeAll, describe, expect, test } from 'vitest'
import * as accept from '@/app/api/invitations/[id]/accept/route'
import * as invitations from '@/app/api/invitations/route'
import * as apiKeys from '@/app/api/api-keys/route'
import * as auditLog from '@/app/api/audit-log/route'
import * as datastores from '@/app/api/datastores/route'
import * as members from '@/app/api/members/route'
import { hashPassword } from '@/lib/auth/passwords'
import { getPrisma } from '@/lib/db/client'
import { call, expectErrorBody } from '../helpers/http'
import { signInWithCredentials, type SignIn } from '../helpers/sign-in'

const stamp = `${Date.now()}`
const email = (who: string) => `${who}-${stamp}@example.com`
const PASSWORDS = { admin: 'admin password 123', editor: 'editor password 123', viewer: 'viewer password 123' }

let admin: SignIn
const invited = {} as Record<'editor' | 'viewer', { id: string; token: string }>
const signedIn = {} as Record<'editor' | 'viewer', SignIn>

beforeAll(async () => {
  const prisma = await getPrisma()
  await prisma.organization.create({
    data: {
      name: 'Team org',
      memberships: {
        create: [
          { role: 'owner', user: { create: { email: email('owner'), passwordHash: await hashPassword('owner password 123') } } },
          { role: 'admin', user: { create: { email: email('admin'), name: 'Ada Admin', passwordHash: await hashPassword(PASSWORDS.admin) } } },
        ],
      },
    },
  })
  admin = await signInWithCredentials(email('admin'), PASSWORDS.admin)
  expect(admin.ok).toBe(true)
})

const invite = (session: SignIn, body: unknown) => call(invitations.POST, '/api/invitations', { method: 'POST', headers: session.headers, body })
const acceptWith = (token: string, body: unknown, headers: Record<string, string> = {}) =>
  call(accept.POST, `/api/invitations/${token}/accept`, { method: 'POST', headers, body, params: { id: token } })

describe('a team joins by invitation (issue 24, acceptance)', () => {
  test('an admin invites an editor and a viewer: each gets a link with a token, valid for 7 days', async () => {
    for (const role of ['editor', 'viewer'] as const) {
      const res = await invite(admin, { email: email(role), role })
      expect(res.status, res.text).toBe(201)
      expect(res.json).toMatchObject({ email: email(role), role })
      expect(res.json.url).toBe(`http://localhost/invite/${encodeURIComponent(res.json.token)}`)
      const days = (Date.parse(res.json.expiresAt) - Date.now()) / 86_400_000
      expect(days).toBeGreaterThan(6.99)
      expect(days).toBeLessThanOrEqual(7)
      invited[role] = { id: res.json.id, token: res.json.token }
    }
  })

  test('each invitation is accepted once; a second accept is a 4xx with the error body', async () => {
    for (const role of ['editor', 'viewer'] as const) {
      const first = await acceptWith(invited[role].token, { name: `${role} person`, password: PASSWORDS[role] })
      expect(first.status, first.text).toBe(200)
      expect(first.json).toMatchObject({ email: email(role), role, accountCreated: true })
      const second = await acceptWith(invited[role].token, { name: 'someone else', password: 'another password 1' })
      expect(second.status).toBe(409)
      expectErrorBody(second.json, 'conflict')
    }
  })

  test('each invitee signs in through /api/auth/callback/credentials with the password they chose', async () => {
    for (const role of ['editor', 'viewer'] as const) {
      expect((await signInWithCredentials(email(role), 'not the password')).ok).toBe(false)
      signedIn[role] = await signInWithCredentials(email(role), PASSWORDS[role])
      expect(signedIn[role].ok, role).toBe(true)
    }
  })

  test('GET /api/members lists them with their roles', async () => {
    const res = await call(members.GET, '/api/members', { headers: signedIn.viewer.headers })
    expect(res.status).toBe(200)
    const roles = Object.fromEntries(res.json.map((m: { email: string; role: string }) => [m.email, m.role]))
    expect(roles).toEqual({ [email('owner')]: 'owner', [email('admin')]: 'admin', [email('editor')]: 'editor', [email('viewer')]: 'viewer' })
  })

  test("a viewer's POST /api/datastores is 403 with the error body; an editor's is 201", async () => {
    const asViewer = await call(datastores.POST, '/api/datastores', { method: 'POST', headers: signedIn.viewer.headers, body: { name: 'Viewer docs' } })
    expect(asViewer.status).toBe(403)
    expectErrorBody(asViewer.json, 'forbidden')
    const asEditor = await call(datastores.POST, '/api/datastores', { method: 'POST', headers: signedIn.editor.headers, body: { name: 'Editor docs' } })
    expect(asEditor.status, asEditor.text).toBe(201)
  })

  test("an editor's POST /api/invitations and POST /api/api-keys are 403", async () => {
    const invitation = await invite(signedIn.editor, { email: email('friend'), role: 'viewer' })
    expect(invitation.status).toBe(403)
    expectErrorBody(invitation.json, 'forbidden')
    const key = await call(apiKeys.POST, '/api/api-keys', { method: 'POST', headers: signedIn.editor.headers, body: { name: 'mine' } })
    expect(key.status).toBe(403)
    expectErrorBody(key.json, 'forbidden')
  })

  test("the audit log shows the invitations with the invitee's email, and the editor's datastore with the editor's email as actor", async () => {
    const res = await call(auditLog.GET, '/api/audit-log', { headers: admin.headers })
    expect(res.status).toBe(200)
    const entries = res.json.items as { action: string; actor: { label: string }; target: { id: string; name: string } | null }[]
    for (const role of ['editor', 'viewer'] as const) {
      expect(entries).toContainEqual(expect.objectContaining({ action: 'invitation.created', actor: expect.objectContaining({ label: email('admin') }), target: expect.objectContaining({ id: invited[role].id, name: email(role) }) }))
      expect(entries).toContainEqual(expect.objectContaining({ action: 'invitation.accepted', actor: expect.objectContaining({ label: email(role) }), target: expect.objectContaining({ name: email(role) }) }))
    }
    expect(entries).toContainEqual(expect.objectContaining({ action: 'datastore.created', actor: expect.objectContaining({ label: email('editor') }), target: expect.objectContaining({ name: 'Editor docs' }) }))
    // a viewer reading it is refused
    expect((await call(auditLog.GET, '/api/audit-log', { headers: signedIn.viewer.headers })).status).toBe(403)
  })
})
