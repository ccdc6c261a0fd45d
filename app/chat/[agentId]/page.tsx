import type { Metadata } from 'next'
import { pageTitleOf, publicAgentFace } from '@/lib/agents/public-face'
import { PublicChat } from '@/components/chat/public-chat'

// The embeddable chat of a public agent: no session, no dashboard chrome (it is outside the (dashboard) group). Its
// title is the agent's page title (issue 14); proxy.ts serves it with the agent's frame-ancestors.
export async function generateMetadata({ params }: { params: Promise<{ agentId: string }> }): Promise<Metadata> {
  const { agentId } = await params
  const face = await publicAgentFace(agentId).catch(() => null)
  return { title: { absolute: face ? pageTitleOf(face) : 'Chat' }, robots: { index: false } }
}

export default async function ChatPage({
  params,
  searchParams,
}: {
  params: Promise<{ agentId: string }>
  searchParams: Promise<{ embed?: string }>
}) {
  const { agentId } = await params
  const { embed } = await searchParams
  return <PublicChat agentId={agentId} embedded={embed === '1'} />
}
