import type { Metadata } from 'next'
import { AgentSettings } from '@/components/agents/agent-settings'

export const metadata: Metadata = { title: 'Agent' }

export default async function AgentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params
  return <AgentSettings id={id} />
}
