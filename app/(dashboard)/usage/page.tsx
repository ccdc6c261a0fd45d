import type { Metadata } from 'next'
import { PageHeader } from '@/components/layout/page-header'
import { UsageCharts } from '@/components/usage/usage-charts'
import { UsageView } from '@/components/usage/usage-view'

export const metadata: Metadata = { title: 'Usage' }

export default function UsagePage() {
  return (
    <>
      <PageHeader title="Usage" description="What your organization has used this month, against its limits, and day by day over the last 30 days." />
      <div className="grid gap-8">
        <UsageView />
        <UsageCharts />
      </div>
    </>
  )
}
