import type { Metadata } from 'next'
import { PageHeader } from '@/components/layout/page-header'
import { CreateDatastoreDialog } from '@/components/datastores/create-datastore-dialog'
import { DatastoresTable } from '@/components/datastores/datastores-table'

export const metadata: Metadata = { title: 'Datastores' }

export default function DatastoresPage() {
  return (
    <>
      <PageHeader
        title="Datastores"
        description="Collections of documents, web pages and text, split into chunks that agents search to answer."
        action={<CreateDatastoreDialog />}
      />
      <DatastoresTable />
    </>
  )
}
