import type { Metadata } from 'next'
import { LeadsView } from '@/components/leads/leads-view'
import { PageHeader } from '@/components/layout/page-header'

export const metadata: Metadata = { title: 'Leads' }

export default function LeadsPage() {
  return (
    <>
      <PageHeader title="Leads" description="Emails visitors left in the chat so the team can get back to them. Each opens its conversation." />
      <LeadsView />
    </>
  )
}
