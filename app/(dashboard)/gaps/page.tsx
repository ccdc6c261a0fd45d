import type { Metadata } from 'next'
import { GapsView } from '@/components/gaps/gaps-view'
import { PageHeader } from '@/components/layout/page-header'

export const metadata: Metadata = { title: 'Knowledge gaps' }

export default function GapsPage() {
  return (
    <>
      <PageHeader
        title="Knowledge gaps"
        description="Questions your agents answered without sources, with only weak matches, or that visitors voted down, grouped by similar question. Add the missing answer to a datastore, or dismiss."
      />
      <GapsView />
    </>
  )
}
