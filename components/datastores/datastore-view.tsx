'use client'

import { useQuery } from '@tanstack/react-query'
import { DatabaseZap } from 'lucide-react'
import { countOf } from '@/components/format'
import { DetailFrame, DetailTitle } from '@/components/layout/detail-frame'
import { VisibilityBadge } from '@/components/layout/visibility-badge'
import { Badge } from '@/components/ui/badge'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { AddContent } from './add-content'
import { DatasourcesTable } from './datasources-table'
import { DatastoreSettings } from './datastore-settings'
import { getDatastore } from './datastores-api'
import { SearchTester } from './search-tester'
import { datastoreQueryKey } from './types'
import { Can } from '@/components/layout/member-role'

export function useDatastore(id: string) {
  return useQuery({ queryKey: datastoreQueryKey(id), queryFn: () => getDatastore(id) })
}

export function DatastoreView({ id }: { id: string }) {
  const query = useDatastore(id)
  const store = query.data
  return (
    <DetailFrame
      query={query}
      what="the datastore"
      toastId={`datastore-error-${id}`}
      back={{ href: '/datastores', label: 'Datastores' }}
      notFound={{ icon: DatabaseZap, title: 'This datastore does not exist' }}
    >
      <div className="mb-6 grid gap-2">
        <DetailTitle title={store?.name} skeletonClassName="h-8 w-64" />
        {store?.description && <p className="max-w-prose text-sm text-muted-foreground">{store.description}</p>}
        {store && (
          <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
            <VisibilityBadge visibility={store.visibility} />
            <Badge variant="outline">{store.searchMode === 'fulltext' ? 'Full-text search' : 'Hybrid search'}</Badge>
            <span>
              {countOf(store.nbDatasources - (store.nbSitePages ?? 0), 'datasource')}
              {store.nbSitePages ? ` and ${countOf(store.nbSitePages, 'site page')}` : ''} · {countOf(store.nbChunks, 'chunk')}
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
            <Can scope="datastores:write">
              <AddContent datastoreId={store.id} />
            </Can>
            <DatasourcesTable datastoreId={store.id} />
          </TabsContent>
          <TabsContent value="search">
            <SearchTester datastore={store} />
          </TabsContent>
          <TabsContent value="settings">
            <Can scope="datastores:write">
              <DatastoreSettings key={store.updatedAt} datastore={store} />
            </Can>
          </TabsContent>
        </Tabs>
      )}
    </DetailFrame>
  )
}
