import type { Metadata } from 'next'
import { Playground } from '@/components/chat/playground'
import { PageHeader } from '@/components/layout/page-header'

export const metadata: Metadata = { title: 'Playground' }

export default async function PlaygroundPage({ searchParams }: { searchParams: Promise<{ agent?: string | string[] }> }) {
  const { agent } = await searchParams
  return (
    <>
      <PageHeader title="Playground" description="Try an agent before you ship it: ask, watch the answer stream in, check its sources." />
      <Playground initialAgentId={typeof agent === 'string' ? agent : undefined} />
    </>
  )
}
