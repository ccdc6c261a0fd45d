import type { Metadata } from 'next'
import { PublicChat } from '@/components/chat/public-chat'

// The embeddable chat of a public agent: no session, no dashboard chrome (it is outside the (dashboard) group).
export const metadata: Metadata = { title: 'Chat', robots: { index: false } }

export default async function ChatPage({ params }: { params: Promise<{ agentId: string }> }) {
  const { agentId } = await params
  return <PublicChat agentId={agentId} />
}
