// With SMTP_URL set, the team is e-mailed when a visitor asks for a person (issue 23): the assignee, else the owners
// and admins, through a real SMTP server on 127.0.0.1 (smtp-server as the sink).
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, expect, test } from 'vitest'
import * as conversationItem from '@/app/api/conversations/[id]/route'
import { getPrisma } from '@/lib/db/client'
import { createAgentVia, queryAgentVia, useFakeModel } from './helpers/agents'
import { call } from './helpers/http'
import { createTenant } from './helpers/tenants'

process.env.LIMIT_PUBLIC_QUERIES_PER_MINUTE = '1000000'
const model = useFakeModel()
const received: { to: string[]; data: string }[] = []
let server: SMTPServer

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      let data = ''
      stream.on('data', chunk => (data += chunk))
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map(r => r.address), data })
        done()
      })
    },
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  process.env.SMTP_URL = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`
})

afterAll(async () => {
  delete process.env.SMTP_URL
  await new Promise<void>(resolve => server.close(() => resolve()))
})

async function member(organizationId: string, role: 'owner' | 'admin' | 'operator', email: string) {
  const prisma = await getPrisma()
  const user = await prisma.user.create({ data: { email, passwordHash: 'x' } })
  await prisma.membership.create({ data: { organizationId, userId: user.id, role } })
  return user
}

test("a visitor's request for a person is e-mailed to the owners and admins, and to the assignee alone once there is one", async () => {
  const tenant = await createTenant()
  const stamp = Date.now()
  await member(tenant.ctx.organizationId, 'owner', `owner-${stamp}@example.com`)
  await member(tenant.ctx.organizationId, 'admin', `admin-${stamp}@example.com`)
  const olga = await member(tenant.ctx.organizationId, 'operator', `olga-${stamp}@example.com`)
  const agent = await createAgentVia(tenant, { visibility: 'public' })
  model.fake.setBehaviour({ reply: 'Hello.', delayMs: 0 })
  const ask = async () => (await queryAgentVia(agent.id, { query: 'My kettle leaks' })).json.conversationId as string
  const patch = (id: string, body: unknown, headers: Record<string, string> = {}) =>
    call(conversationItem.PATCH, `/api/conversations/${id}`, { method: 'PATCH', headers, body, params: { id } })

  const first = await ask()
  expect((await patch(first, { status: 'HUMAN_REQUESTED' })).status).toBe(200)
  await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1)
  expect(received[0].to.sort()).toEqual([`admin-${stamp}@example.com`, `owner-${stamp}@example.com`])
  expect(received[0].data).toContain('A visitor asks for a person: My kettle leaks')

  const second = await ask()
  await patch(second, { assigneeId: olga.id }, tenant.headers)
  await patch(second, { status: 'HUMAN_REQUESTED' })
  await expect.poll(() => received.length, { timeout: 10_000 }).toBe(2)
  expect(received[1].to).toEqual([`olga-${stamp}@example.com`])
})
