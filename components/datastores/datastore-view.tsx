'use client'

import Link from 'next/link'
import { useQuery } from '@tanstack/react-query'
import { ArrowLeft, DatabaseZap } from 'lucide-react'
import { ApiError, apiFetch } from '@/components/api-client'
import { EmptyState } from '@/components/layout/empty-state'
import { LoadError, useErrorToast } from '@/components/layout/query-states'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { AddContent } from './add-content'
import { DatasourcesTable } from './datasources-table'
import { countOf } from './datastores-table'
import { DatastoreSettings } from './datastore-settings'
import { SearchTester } from './search-tester'
import { datastoreQueryKey, type Datastore } from './types'

export function useDatastore(id: string) {
  return useQuery({
    queryKey: datastoreQueryKey(id),
    queryFn: () => apiFetch<Datastore>(`/api/datastores/${encodeURIComponent(id)}`),
  })
}

export function DatastoreView({ id }: { id: string }) {
  const query = useDatastore(id)
  const notFound = query.error instanceof ApiError && query.error.status === 404
  useErrorToast(notFound ? null : query.error, `datastore-error-${id}`, 'the datastore')

  const back = (
    <Button asChild variant="ghost" size="sm" className="-ml-2 mb-2 w-fit text-muted-foreground">
      <Link href="/datastores">
        <ArrowLeft aria-hidden />
        Datastores
      </Link>
    </Button>
  )

  if (notFound) {
    return (
      <>
        {back}
        <EmptyState icon={DatabaseZap} title="This datastore does not exist">
          It may have been deleted, or the link is wrong.
        </EmptyState>
      </>
    )
  }
  if (query.isError && !query.data) {
    return (
      <>
        {back}
        <LoadError error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />
      </>
    )
  }

  const store = query.data
  return (
    <>
      {back}
      <div className="mb-6 grid gap-2">
        {store ? (
          <h1 className="text-2xl font-semibold tracking-tight break-words">{store.name}</h1>
        ) : (
          <Skeleton className="h-8 w-64" />
        )}
        {store?.description && <p className="max-w-prose text-sm text-muted-foreground">{store.description}</p>}
        {store && (
          <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
            <Badge variant={store.visibility === 'public' ? 'secondary' : 'outline'} className="capitalize">
              {store.visibility}
            </Badge>
            <Badge variant="outline">{store.searchMode === 'fulltext' ? 'Full-text search' : 'Hybrid search'}</Badge>
            <span>
              {countOf(store.nbDatasources ?? 0, 'datasource')} · {countOf(store.nbChunks ?? 0, 'chunk')}
            </span>
          </div>
        )}
      </div>

      {store && (
        <Tabs defaultValue="content" className="min-w-0">
          <TabsList aria-label="Datastore sections">
            <TabsTrigger value="content">Content</TabsTrigger>
            <TabsTrigger value="search">Search tester</TabsTrigger>
            <TabsTrigger value="settings">Settings</TabsTrigger>
          </TabsList>
          <TabsContent value="content" forceMount className="grid min-w-0 grid-cols-1 gap-6 data-[state=inactive]:hidden">
            <AddContent datastoreId={store.id} />
            <DatasourcesTable datastoreId={store.id} />
          </TabsContent>
          <TabsContent value="search">
            <SearchTester datastore={store} />
          </TabsContent>
          <TabsContent value="settings">
            <DatastoreSettings key={store.updatedAt} datastore={store} />
          </TabsContent>
        </Tabs>
      )}
    </>
  )
}
