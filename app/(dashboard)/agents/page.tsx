import type { Metadata } from 'next'
import { Bot } from 'lucide-react'
import { EmptyState } from '@/components/layout/empty-state'
import { PageHeader } from '@/components/layout/page-header'

export const metadata: Metadata = { title: 'Agents' }

export default function AgentsPage() {
  return (
    <>
      <PageHeader title="Agents" description="Assistants that answer questions from the datastores you connect to them." />
      <EmptyState icon={Bot} title="No agents yet">
        Soon you will create agents here: pick a model, write its instructions, connect datastores, then chat with it in the
        playground, call it through the API or embed it in your site.
      </EmptyState>
    </>
  )
}
