import { csvField } from '@/lib/csv'
import { getPrisma } from '@/lib/db/client'
import type { CapturedLead, LeadResource, LeadsPage } from '@/lib/domain/support'
import type { TenantContext } from '@/lib/domain/tenant'
import { NotFound } from '@/lib/http/errors'
import { afterCursor, decodePageCursor, encodePageCursor } from '@/lib/http/page-cursor'
import { limitPublicQuery } from '@/lib/rate-limit/public-queries'
import { visitorActor, type SupportActor } from './actor'
import { announceLead } from './notify'
import type { CaptureInput, LeadListParams } from './schemas'

// Leads: the contact a visitor leaves in Chaindesk's lead form (POST /api/agents/{id}/capture), one per conversation
// and email (sending the form twice keeps one), listed newest first for the team and exported as CSV.

/** The agent the lead is left with, as the caller reached it (resolveAgentAccess: a member, or a public agent's visitor). */
export interface LeadAgent {
  organizationId: string
  agentId: string
  member: boolean
}

/** What the agent's lead_capture tool adds to the form's email (issue 25), and who left the lead (the visitor by default). */
export interface LeadDetails {
  name?: string | null
  phone?: string | null
  actor?: SupportActor
}

/** Stores the lead (or finds the same one); `created` says whether it is new. Key-less callers are rate-limited. */
export async function captureLead(agent: LeadAgent, input: CaptureInput, clientAddress: string, details: LeadDetails = {}): Promise<{ lead: CapturedLead; created: boolean }> {
  if (!agent.member) limitPublicQuery(clientAddress, input.visitorId || undefined)
  const prisma = await getPrisma()
  const conversation = input.conversationId
    ? await prisma.conversation.findFirst({ where: { id: input.conversationId, agentId: agent.agentId }, select: { id: true, visitorId: true } })
    : null
  if (input.conversationId && !conversation) throw new NotFound('Conversation')
  const visitorId = conversation?.visitorId ?? (await ownVisitor(agent.organizationId, input.visitorId))
  const where = { agentId: agent.agentId, conversationId: conversation?.id ?? null, visitorId, email: input.visitorEmail }
  const contact = { ...(details.name && { name: details.name }), ...(details.phone && { phone: details.phone }) }
  const existing = await prisma.lead.findFirst({ where, orderBy: { createdAt: 'asc' } })
  if (existing) {
    if (Object.keys(contact).length) await prisma.lead.update({ where: { id: existing.id }, data: contact })
    return { lead: toCaptured(existing), created: false }
  }
  try {
    const lead = await prisma.lead.create({ data: { organizationId: agent.organizationId, ...where, ...contact } })
    if (lead.conversationId) await recordLeadEvent(lead.conversationId, lead.email, details.actor ?? visitorActor(visitorId))
    await announceLead(lead)
    return { lead: toCaptured(lead), created: true }
  } catch (error) {
    // the same form sent twice at once: the other request stored it
    const raced = await prisma.lead.findFirst({ where })
    if (!raced) throw error
    return { lead: toCaptured(raced), created: false }
  }
}

/** A visitor id of the organization, else none (an id the widget made up, or another organization's, is not kept). */
async function ownVisitor(organizationId: string, visitorId: string | null | undefined): Promise<string | null> {
  if (!visitorId) return null
  const prisma = await getPrisma()
  const visitor = await prisma.visitor.findFirst({ where: { id: visitorId, organizationId }, select: { id: true } })
  return visitor?.id ?? null
}

async function recordLeadEvent(conversationId: string, email: string, actor: SupportActor) {
  const prisma = await getPrisma()
  await prisma.conversationEvent.create({ data: { conversationId, type: 'lead', toValue: email, actorType: actor.type, actorId: actor.id } })
}

const toCaptured = (l: { id: string; email: string; conversationId: string | null; createdAt: Date }): CapturedLead => ({
  id: l.id,
  email: l.email,
  conversationId: l.conversationId,
  createdAt: l.createdAt.toISOString(),
})

/** The organization's leads, newest first, a page at a time; of one agent with `agentId`. */
export async function listLeads(ctx: TenantContext, params: LeadListParams): Promise<LeadsPage> {
  const prisma = await getPrisma()
  const rows = await prisma.lead.findMany({
    where: {
      organizationId: ctx.organizationId,
      ...(params.agentId && { agentId: params.agentId }),
      ...(params.cursor && afterCursor(decodePageCursor(params.cursor))),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: params.limit + 1,
    include: { agent: { select: { name: true } } },
  })
  const page = rows.slice(0, params.limit)
  const last = page[page.length - 1]
  return { items: page.map(toLead), nextCursor: rows.length > params.limit && last ? encodePageCursor(last) : null }
}

type LeadRow = { id: string; email: string; name: string | null; phone: string | null; agentId: string; agent: { name: string }; conversationId: string | null; visitorId: string | null; createdAt: Date }

function toLead(l: LeadRow): LeadResource {
  return { id: l.id, email: l.email, name: l.name, phone: l.phone, agentId: l.agentId, agentName: l.agent.name, conversationId: l.conversationId, visitorId: l.visitorId, createdAt: l.createdAt.toISOString() }
}

export const LEAD_CSV_COLUMNS = ['email', 'agent_id', 'agent_name', 'conversation_id', 'visitor_id', 'created_at'] as const


/** The leads as CSV lines (header first), a page at a time. */
export async function* exportLeads(ctx: TenantContext, agentId: string | undefined): AsyncGenerator<string> {
  yield `${LEAD_CSV_COLUMNS.join(',')}\r\n`
  let cursor: string | undefined
  do {
    const page = await listLeads(ctx, { agentId, limit: 200, cursor })
    for (const l of page.items) yield `${[l.email, l.agentId, l.agentName, l.conversationId, l.visitorId, l.createdAt].map(csvField).join(',')}\r\n`
    cursor = page.nextCursor ?? undefined
  } while (cursor)
}
