'use client'

import * as React from 'react'
import { useQuery } from '@tanstack/react-query'
import { FileText, ListFilter } from 'lucide-react'
import { EmptyState } from '@/components/layout/empty-state'
import { PendingButton } from '@/components/layout/pending-button'
import { QueryTable, type TableColumn } from '@/components/layout/query-table'
import { HAS_CHILDREN } from '@/lib/domain/datasources'
import type { RefreshInterval } from '@/lib/domain/refresh'
import { SelectionBar } from './bulk-actions'
import { DatasourceRow } from './datasource-row'
import { ALL, DatasourcesToolbar, type DatasourceFilters } from './datasources-toolbar'
import { SitePages } from './site-pages'
import { getDatastore } from './datastores-api'
import { datastoreQueryKey, type Datasource } from './types'
import { useDatasourcePages } from './use-datasource-pages'

const COLUMNS: TableColumn[] = [
  { label: 'Select', className: 'w-9 pl-3', srOnly: true },
  { label: 'Name', className: 'pl-2' },
  { label: 'Type', className: 'hidden md:table-cell' },
  { label: 'Status', className: 'w-[6.5rem] sm:w-auto' },
  { label: 'Chunks', className: 'hidden text-right sm:table-cell' },
  { label: 'Tokens', className: 'hidden text-right lg:table-cell' },
  { label: 'Last sync', className: 'hidden lg:table-cell' },
  { label: 'Actions', className: 'w-[4.75rem] pr-3 text-right sm:w-auto', srOnly: true },
]

/** A set of ids, each added or removed by `set(id, member)`. */
function useIdSet() {
  const [ids, setIds] = React.useState<Set<string>>(() => new Set())
  const has = React.useCallback((id: string) => ids.has(id), [ids])
  const set = React.useCallback((id: string, member: boolean) => {
    setIds(prev => {
      const next = new Set(prev)
      if (member) next.add(id)
      else next.delete(id)
      return next
    })
  }, [])
  const clear = React.useCallback(() => setIds(new Set()), [])
  return { ids, has, set, clear }
}

type IdSet = ReturnType<typeof useIdSet>

/** The listed datasources' rows; an opened web site's pages are listed under its row. */
function DatasourceRows({
  items,
  inheritedRefresh,
  selection,
  openSites,
}: {
  items: Datasource[]
  /** The datastore's refresh interval, which its web sources follow unless they set their own. */
  inheritedRefresh: RefreshInterval
  selection: IdSet
  openSites: IdSet
}) {
  const siteNames = React.useMemo(() => new Map(items.filter(d => HAS_CHILDREN[d.type]).map(d => [d.id, d.name])), [items])
  return items.map(ds => (
    <React.Fragment key={ds.id}>
      <DatasourceRow
        ds={ds}
        siteName={ds.groupId ? (siteNames.get(ds.groupId) ?? 'a web site') : undefined}
        inheritedRefresh={inheritedRefresh}
        selected={selection.has(ds.id)}
        onSelect={v => selection.set(ds.id, v)}
        open={openSites.has(ds.id)}
        onOpenChange={open => openSites.set(ds.id, open)}
      />
      {openSites.has(ds.id) && <SitePages site={ds} isSelected={selection.has} onSelect={selection.set} />}
    </React.Fragment>
  ))
}

function NoDatasources({ filtered }: { filtered: boolean }) {
  return (
    <EmptyState icon={filtered ? ListFilter : FileText} title={filtered ? 'No datasource matches these filters' : 'No content yet'}>
      {filtered
        ? 'Choose “All” in the filters to see every datasource of this datastore.'
        : 'Drop files above, add a web page or a whole site, or paste text. Each becomes a datasource that syncs into searchable chunks.'}
    </EmptyState>
  )
}

/**
 * A datastore's datasources, newest first, filtered by status and type. While any listed datasource is pending or
 * running, the table asks again every LIVE_REFRESH_MS and stops once none is.
 */
export function DatasourcesTable({ datastoreId }: { datastoreId: string }) {
  const [filters, setFilters] = React.useState<DatasourceFilters>({ status: ALL, type: ALL })
  const { query, items, total, active } = useDatasourcePages(datastoreId, filters)
  // the datastore's refresh interval, which its web sources follow unless they set their own
  const store = useQuery({ queryKey: datastoreQueryKey(datastoreId), queryFn: () => getDatastore(datastoreId) })
  const selection = useIdSet()
  const openSites = useIdSet()
  return (
    <section aria-labelledby="datasources-heading" className="grid gap-3">
      <DatasourcesToolbar datastoreId={datastoreId} total={total} active={active} changedAt={query.dataUpdatedAt} filters={filters} onFiltersChange={setFilters} />
      <SelectionBar datastoreId={datastoreId} selected={[...selection.ids]} onClear={selection.clear} />
      <QueryTable
        label="Datasources"
        query={query}
        isEmpty={!!query.data && items.length === 0}
        empty={<NoDatasources filtered={filters.status !== ALL || filters.type !== ALL} />}
        tableClassName="table-fixed sm:table-auto"
        columns={COLUMNS}
      >
        <DatasourceRows items={items} inheritedRefresh={store.data?.refreshInterval ?? 'off'} selection={selection} openSites={openSites} />
      </QueryTable>
      {query.hasNextPage && (
        <div className="flex justify-center">
          <PendingButton variant="outline" size="sm" onClick={() => void query.fetchNextPage()} pending={query.isFetchingNextPage}>
            Show more
          </PendingButton>
        </div>
      )}
    </section>
  )
}
