import { getPrisma } from '@/lib/db/client'
import type { Role } from '@/lib/domain/access'
import type { MemberResource } from '@/lib/domain/support'
import type { TenantContext } from '@/lib/domain/tenant'
import { Conflict, NotFound } from '@/lib/http/errors'
import { assertOwnerFor, callerRole } from './caller-role'

// A member's role changed, or the member removed (PATCH and DELETE /api/members/{userId}). An organization always
// keeps an owner: the last one can be neither demoted nor removed (409), whoever asks.

type Tx = Parameters<Parameters<Awaited<ReturnType<typeof getPrisma>>['$transaction']>[0]>[0]

async function findMember(tx: Tx, ctx: TenantContext, userId: string) {
  const member = await tx.membership.findUnique({
    where: { organizationId_userId: { organizationId: ctx.organizationId, userId } },
    include: { user: { select: { id: true, name: true, email: true } } },
  })
  if (!member) throw new NotFound('Member')
  return member
}

async function keepAnOwner(tx: Tx, ctx: TenantContext, leaving: Role) {
  if (leaving !== 'owner') return
  // the owners' rows locked: two owners demoting each other at once are decided one after the other
  const owners = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "Membership" WHERE "organizationId" = ${ctx.organizationId} AND role = 'owner' FOR UPDATE`
  if (owners.length <= 1) throw new Conflict('The last owner of an organization cannot be removed or demoted: make another member owner first')
}

const toResource = (m: { role: Role; user: { id: string; name: string | null; email: string } }): MemberResource => ({ id: m.user.id, name: m.user.name, email: m.user.email, role: m.role })

export async function changeMemberRole(ctx: TenantContext, userId: string, role: Role): Promise<MemberResource> {
  const prisma = await getPrisma()
  const caller = await callerRole(ctx)
  return prisma.$transaction(async tx => {
    const member = await findMember(tx, ctx, userId)
    if (member.role === role) return toResource(member)
    assertOwnerFor(caller, member.role, role)
    await keepAnOwner(tx, ctx, member.role)
    const updated = await tx.membership.update({ where: { id: member.id }, data: { role }, include: { user: { select: { id: true, name: true, email: true } } } })
    return toResource(updated)
  })
}

/** Removes the member from the organization (their account, and their other organizations, stay). */
export async function removeMember(ctx: TenantContext, userId: string): Promise<MemberResource> {
  const prisma = await getPrisma()
  const caller = await callerRole(ctx)
  return prisma.$transaction(async tx => {
    const member = await findMember(tx, ctx, userId)
    assertOwnerFor(caller, member.role)
    await keepAnOwner(tx, ctx, member.role)
    await tx.membership.delete({ where: { id: member.id } })
    // their conversations go back to the team's queue
    await tx.conversation.updateMany({ where: { organizationId: ctx.organizationId, assigneeId: userId }, data: { assigneeId: null } })
    return toResource(member)
  })
}
