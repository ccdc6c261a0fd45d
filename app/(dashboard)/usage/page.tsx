import type { Metadata } from 'next'
import { ChartColumn } from 'lucide-react'
import { EmptyState } from '@/components/layout/empty-state'
import { PageHeader } from '@/components/layout/page-header'

export const metadata: Metadata = { title: 'Usage' }

export default function UsagePage() {
  return (
    <>
      <PageHeader title="Usage" description="What your organization has used this month, against its limits." />
      <EmptyState icon={ChartColumn} title="No usage yet">
        Agent queries, tokens, datasources and stored data will be counted here month by month, so you can see how close you
        are to each limit.
      </EmptyState>
    </>
  )
}
