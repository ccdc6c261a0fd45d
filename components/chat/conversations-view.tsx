'use client'

import { InboxView } from '@/components/inbox/inbox-view'

/** An agent's conversations: the inbox (components/inbox) scoped to the agent, every one reachable page by page. */
export function ConversationsView({ agentId, selectedId }: { agentId: string; selectedId?: string }) {
  return <InboxView agentId={agentId} selectedId={selectedId} basePath={`/agents/${agentId}/conversations`} />
}
