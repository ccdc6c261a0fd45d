import type { Metadata } from 'next'
import { MessagesSquare } from 'lucide-react'
import { EmptyState } from '@/components/layout/empty-state'
import { PageHeader } from '@/components/layout/page-header'

export const metadata: Metadata = { title: 'Playground' }

export default function PlaygroundPage() {
  return (
    <>
      <PageHeader title="Playground" description="Try an agent before you ship it." />
      <EmptyState icon={MessagesSquare} title="Nothing to chat with yet">
        Once you have an agent, choose it here and ask questions: answers stream in as they are written, with the sources
        they were drawn from.
      </EmptyState>
    </>
  )
}
