import type { Metadata } from 'next'
import { DatasourceView } from '@/components/datastores/datasource-view'

export const metadata: Metadata = { title: 'Datasource' }

export default async function DatasourcePage({ params }: { params: Promise<{ id: string; datasourceId: string }> }) {
  const { id, datasourceId } = await params
  return <DatasourceView datastoreId={id} id={datasourceId} />
}
