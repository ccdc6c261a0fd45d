import type { Metadata } from 'next'
import { InboxView } from '@/components/inbox/inbox-view'
import { PageHeader } from '@/components/layout/page-header'

export const metadata: Metadata = { title: 'Conversations' }

export default async function ConversationsPage({ searchParams }: { searchParams: Promise<{ c?: string | string[] }> }) {
  const { c } = await searchParams
  return (
    <>
      <PageHeader title="Conversations" description="Every conversation of every agent: search, filter by agent, channel, date, votes and sources, and export." />
      <InboxView selectedId={typeof c === 'string' ? c : undefined} basePath="/conversations" />
    </>
  )
}
