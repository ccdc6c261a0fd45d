import type { Metadata } from 'next'
import { AgentsTable, NewAgentButton } from '@/components/agents/agents-table'
import { PageHeader } from '@/components/layout/page-header'

export const metadata: Metadata = { title: 'Agents' }

export default function AgentsPage() {
  return (
    <>
      <PageHeader
        title="Agents"
        description="Assistants that answer questions from the datastores you connect to them."
        action={<NewAgentButton />}
      />
      <AgentsTable />
    </>
  )
}
