'use client'

import { useRouter } from 'next/navigation'
import { EMPTY_AGENT_FORM } from './agent-form-schema'
import { AgentForm } from './agent-form'

export function NewAgent() {
  const router = useRouter()
  return <AgentForm initialValues={EMPTY_AGENT_FORM} onSaved={agent => router.push(`/agents/${agent.id}`)} cancelHref="/agents" />
}
