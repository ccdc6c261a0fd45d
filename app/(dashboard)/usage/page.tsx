import type { Metadata } from 'next'
import { PageHeader } from '@/components/layout/page-header'
import { UsageView } from '@/components/usage/usage-view'

export const metadata: Metadata = { title: 'Usage' }

export default function UsagePage() {
  return (
    <>
      <PageHeader title="Usage" description="What your organization has used this month, against its limits." />
      <UsageView />
    </>
  )
}
