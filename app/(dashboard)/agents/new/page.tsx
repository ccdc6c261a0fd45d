import type { Metadata } from 'next'
import { NewAgent } from '@/components/agents/new-agent'
import { PageHeader } from '@/components/layout/page-header'

export const metadata: Metadata = { title: 'New agent' }

export default function NewAgentPage() {
  return (
    <div className="max-w-3xl">
      <PageHeader title="New agent" description="Choose a model, write its instructions and connect the datastores it answers from." />
      <NewAgent />
    </div>
  )
}
