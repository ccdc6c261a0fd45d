import type { Metadata } from 'next'
import { ConversationsView } from '@/components/chat/conversations-view'

export const metadata: Metadata = { title: 'Conversations' }

export default async function AgentConversationsPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>
  searchParams: Promise<{ c?: string | string[] }>
}) {
  const { id } = await params
  const { c } = await searchParams
  return <ConversationsView agentId={id} selectedId={typeof c === 'string' ? c : undefined} />
}
