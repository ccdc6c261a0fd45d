import type { Metadata } from 'next'
import { DatastoreView } from '@/components/datastores/datastore-view'

export const metadata: Metadata = { title: 'Datastore' }

export default async function DatastorePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params
  return <DatastoreView id={id} />
}
