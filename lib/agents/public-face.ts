import { getPrisma } from '@/lib/db/client'
import type { AgentAppearance } from '@/lib/domain/agents'
import { frameAncestorsPolicy } from './allowed-domains'
import { resolveAppearance } from './appearance'

// What the chat page of a public agent needs before it renders (issue 14): its title, its look, and who may frame it.

export interface PublicFace {
  name: string
  appearance: AgentAppearance
  /** The Content-Security-Policy the page is served with (frame-ancestors of the allow-list); null: none. */
  contentSecurityPolicy: string | null
}

/** A public agent's face, or null for a private or unknown agent (its page then says it is not available). */
export async function publicAgentFace(agentId: string): Promise<PublicFace | null> {
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(agentId)) return null
  const prisma = await getPrisma()
  const agent = await prisma.agent.findUnique({ where: { id: agentId }, select: { name: true, visibility: true, appearance: true, allowedDomains: true } })
  if (!agent || agent.visibility !== 'public') return null
  return { name: agent.name, appearance: resolveAppearance(agent.appearance), contentSecurityPolicy: frameAncestorsPolicy(agent.allowedDomains) }
}

/** The tab's title: the page title, else the display name, else the agent's name. */
export function pageTitleOf(face: PublicFace): string {
  return face.appearance.pageTitle ?? face.appearance.displayName ?? face.name
}
