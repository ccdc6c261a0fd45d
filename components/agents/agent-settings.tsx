'use client'

import { agentToFormValues } from './agent-form-schema'
import { AgentForm } from './agent-form'
import { EmbedSnippet } from './embed-snippet'
import { useAgent } from './use-agents'

export function AgentSettings({ id }: { id: string }) {
  const { data: agent } = useAgent(id)
  if (!agent) return null
  return (
    <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_24rem]">
      <AgentForm key={agent.updatedAt} agent={agent} initialValues={agentToFormValues(agent)} onSaved={() => {}} cancelHref="/agents" />
      <div className="h-fit xl:sticky xl:top-8">
        <EmbedSnippet agent={agent} />
      </div>
    </div>
  )
}
