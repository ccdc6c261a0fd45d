import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { resolveAgentAccess } from '@/lib/agents/agent-access'
import { organizationModelMap } from '@/lib/agents/organization-models'
import { getPrisma } from '@/lib/db/client'
import { createTenant } from '../helpers/tenants'

// The agent a question runs with is read in one statement of plain SQL (issue 28); it must be the agent Prisma reads,
// every column of it with its type, on either database, whatever the server's time zone.

describe('the agent a question runs with', () => {
  const zone = process.env.TZ
  beforeEach(() => { process.env.TZ = 'America/New_York' })
  afterEach(() => { if (zone === undefined) delete process.env.TZ; else process.env.TZ = zone })

  test('is the row Prisma reads, with its datastores and the organization model map', async () => {
    const tenant = await createTenant()
    const prisma = await getPrisma()
    await prisma.organization.update({ where: { id: tenant.ctx.organizationId }, data: { modelMap: { model_3_5_turbo: 'acme-small', model_4: '', junk: 1 } } })
    const stores = await Promise.all(['Manuals', 'FAQ'].map(name => prisma.datastore.create({ data: { organizationId: tenant.ctx.organizationId, name } })))
    const created = await prisma.agent.create({
      data: {
        organizationId: tenant.ctx.organizationId, name: 'Kettle help', description: 'Answers kettle questions', modelName: 'model_4', temperature: 0.3,
        maxTokens: 300, visibility: 'public', systemPrompt: 'Be brief.', userPrompt: null, promptType: 'customer_support', minScore: 0.25,
        noAnswerMessage: 'Ask a person.', appearance: { primaryColor: '#123456', title: 'Hi' }, allowedDomains: ['example.com', 'shop.example.com'],
        requireSignedVisitors: false, tools: [{ type: 'request_human' }], rewriteQuestions: false,
        datastores: { create: stores.map(s => ({ datastoreId: s.id })) },
      },
    })

    const access = await resolveAgentAccess(tenant.ctx, created.id)

    const read = await prisma.agent.findUniqueOrThrow({ where: { id: created.id }, include: { datastores: { select: { datastoreId: true } } } })
    const bySortedStores = <T extends { datastores: { datastoreId: string }[] }>(a: T) => ({ ...a, datastores: [...a.datastores].sort((x, y) => x.datastoreId.localeCompare(y.datastoreId)) })
    expect(bySortedStores(access.agent)).toStrictEqual(bySortedStores(read))
    expect(access.agent.createdAt).toBeInstanceOf(Date)
    expect(access.organizationModels).toEqual(await organizationModelMap(tenant.ctx.organizationId))
    expect(access.organizationModels).toEqual({ model_3_5_turbo: 'acme-small' })
  })

  test('an agent without datastores, prompts or map reads as Prisma reads it too', async () => {
    const tenant = await createTenant()
    const prisma = await getPrisma()
    const created = await prisma.agent.create({ data: { organizationId: tenant.ctx.organizationId, name: 'Bare' } })
    const access = await resolveAgentAccess(tenant.ctx, created.id)
    expect(access.agent).toStrictEqual(await prisma.agent.findUniqueOrThrow({ where: { id: created.id }, include: { datastores: { select: { datastoreId: true } } } }))
    expect(access.organizationModels).toEqual({})
  })
})
