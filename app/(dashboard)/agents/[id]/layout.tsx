import { AgentFrame } from '@/components/agents/agent-header'

export default async function AgentLayout({ params, children }: { params: Promise<{ id: string }>; children: React.ReactNode }) {
  const { id } = await params
  return <AgentFrame id={id}>{children}</AgentFrame>
}
