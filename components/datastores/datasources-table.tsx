'use client'

import * as React from 'react'
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query'
import { FileText, ListFilter, Loader2 } from 'lucide-react'
import { EmptyState } from '@/components/layout/empty-state'
import { PendingButton } from '@/components/layout/pending-button'
import { useErrorToast } from '@/components/layout/query-states'
import { QueryTable } from '@/components/layout/query-table'
import { Label } from '@/components/ui/label'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { HAS_CHILDREN } from '@/lib/domain/datasources'
import { RetryFailedButton, SelectionBar } from './bulk-actions'
import { DatasourceRow } from './datasource-row'
import { SitePages } from './site-pages'
import { getDatastore, listDatasources } from './datastores-api'
import {
  ACTIVE_STATUSES,
  DATASOURCE_STATUSES,
  DATASOURCE_TYPES,
  datasourcesQueryKey,
  datastoreQueryKey,
  datastoresQueryKey,
  STATUS_LABELS,
  TYPE_LABELS,
  type DatasourceStatus,
  type DatasourceType,
} from './types'

/** How often the table asks again while something is syncing. */
export const LIVE_REFRESH_MS = 1500
const PAGE_SIZE = 50

const ALL = 'all'

function FilterSelect<T extends string>({
  id,
  label,
  value,
  onChange,
  options,
}: {
  id: string
  label: string
  value: T | typeof ALL
  onChange: (v: T | typeof ALL) => void
  options: { value: T; label: string }[]
}) {
  return (
    <div className="flex items-center gap-2">
      <Label htmlFor={id} className="text-muted-foreground">
        {label}
      </Label>
      <Select value={value} onValueChange={v => onChange(v as T | typeof ALL)}>
        <SelectTrigger id={id} size="sm" className="min-w-[7rem] sm:min-w-[8.5rem]">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={ALL}>All</SelectItem>
          {options.map(o => (
            <SelectItem key={o.value} value={o.value}>
              {o.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  )
}

/** Which datasources are selected, by id. */
function useSelection() {
  const [ids, setIds] = React.useState<Set<string>>(() => new Set())
  const has = React.useCallback((id: string) => ids.has(id), [ids])
  const set = React.useCallback((id: string, selected: boolean) => {
    setIds(prev => {
      const next = new Set(prev)
      if (selected) next.add(id)
      else next.delete(id)
      return next
    })
  }, [])
  const clear = React.useCallback(() => setIds(new Set()), [])
  return { ids, has, set, clear }
}

/**
 * A datastore's datasources, newest first, filtered by status and type. While any listed datasource is pending or
 * running, the table asks again every LIVE_REFRESH_MS and stops once none is.
 */
export function DatasourcesTable({ datastoreId }: { datastoreId: string }) {
  const [status, setStatus] = React.useState<DatasourceStatus | typeof ALL>(ALL)
  const [type, setType] = React.useState<DatasourceType | typeof ALL>(ALL)
  const queryClient = useQueryClient()
  // the datastore's refresh interval, which its web sources follow unless they set their own
  const store = useQuery({ queryKey: datastoreQueryKey(datastoreId), queryFn: () => getDatastore(datastoreId) })

  const query = useInfiniteQuery({
    queryKey: [...datasourcesQueryKey(datastoreId), { status, type }],
    initialPageParam: null as string | null,
    // unfiltered, a site's pages are listed under it (SitePages); filtered, every match is listed
    queryFn: ({ pageParam, signal }) =>
      listDatasources(
        datastoreId,
        {
          limit: PAGE_SIZE,
          status: status === ALL ? undefined : status,
          type: type === ALL ? undefined : type,
          cursor: pageParam ?? undefined,
          topLevel: status === ALL && type === ALL ? 'true' : undefined,
        },
        signal,
      ),
    getNextPageParam: last => last.nextCursor,
    refetchInterval: q => {
      const pages = q.state.data?.pages ?? []
      return pages.some(p => p.items.some(d => ACTIVE_STATUSES.includes(d.status))) ? LIVE_REFRESH_MS : false
    },
    refetchIntervalInBackground: false,
  })
  useErrorToast(query.error, `datasources-error-${datastoreId}`, 'the datasources')

  const items = React.useMemo(() => query.data?.pages.flatMap(p => p.items) ?? [], [query.data])
  const total = query.data?.pages[0]?.total
  const active = items.filter(d => ACTIVE_STATUSES.includes(d.status)).length
  const siteNames = React.useMemo(() => new Map(items.filter(d => HAS_CHILDREN[d.type]).map(d => [d.id, d.name])), [items])

  // when the last sync finishes, the datastore's counts have changed
  const wasActive = React.useRef(false)
  React.useEffect(() => {
    if (wasActive.current && active === 0) {
      void queryClient.invalidateQueries({ queryKey: datastoreQueryKey(datastoreId), exact: true })
      void queryClient.invalidateQueries({ queryKey: datastoresQueryKey, exact: true })
    }
    wasActive.current = active > 0
  }, [active, datastoreId, queryClient])

  const filtered = status !== ALL || type !== ALL
  const selection = useSelection()
  const [openSites, setOpenSites] = React.useState<Set<string>>(() => new Set())
  const toggleSite = (id: string, open: boolean) =>
    setOpenSites(prev => {
      const next = new Set(prev)
      if (open) next.add(id)
      else next.delete(id)
      return next
    })

  return (
    <section aria-labelledby="datasources-heading" className="grid gap-3">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-center gap-2">
          <h2 id="datasources-heading" className="text-base font-semibold">
            Datasources
          </h2>
          {total !== undefined && <span className="text-sm text-muted-foreground tabular-nums">{total.toLocaleString()}</span>}
          {active > 0 && (
            <span className="inline-flex items-center gap-1 text-xs text-muted-foreground" role="status" data-testid="live-refresh">
              <Loader2 className="size-3 animate-spin" aria-hidden />
              {active} syncing, updating live
            </span>
          )}
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <RetryFailedButton datastoreId={datastoreId} changedAt={query.dataUpdatedAt} />
          <FilterSelect
            id="datasource-status-filter"
            label="Status"
            value={status}
            onChange={setStatus}
            options={DATASOURCE_STATUSES.map(s => ({ value: s, label: STATUS_LABELS[s] }))}
          />
          <FilterSelect
            id="datasource-type-filter"
            label="Type"
            value={type}
            onChange={setType}
            options={DATASOURCE_TYPES.map(t => ({ value: t, label: TYPE_LABELS[t] }))}
          />
        </div>
      </div>

      <SelectionBar datastoreId={datastoreId} selected={[...selection.ids]} onClear={selection.clear} />
      <QueryTable
        label="Datasources"
        query={query}
        isEmpty={!!query.data && items.length === 0}
        empty={
          <EmptyState icon={filtered ? ListFilter : FileText} title={filtered ? 'No datasource matches these filters' : 'No content yet'}>
            {filtered
              ? 'Choose “All” in the filters to see every datasource of this datastore.'
              : 'Drop files above, add a web page or a whole site, or paste text. Each becomes a datasource that syncs into searchable chunks.'}
          </EmptyState>
        }
        tableClassName="table-fixed sm:table-auto"
        columns={[
          { label: 'Select', className: 'w-9 pl-3', srOnly: true },
          { label: 'Name', className: 'pl-2' },
          { label: 'Type', className: 'hidden md:table-cell' },
          { label: 'Status', className: 'w-[6.5rem] sm:w-auto' },
          { label: 'Chunks', className: 'hidden text-right sm:table-cell' },
          { label: 'Tokens', className: 'hidden text-right lg:table-cell' },
          { label: 'Last sync', className: 'hidden lg:table-cell' },
          { label: 'Actions', className: 'w-[4.75rem] pr-3 text-right sm:w-auto', srOnly: true },
        ]}
      >
        {items.map(ds => (
          <React.Fragment key={ds.id}>
            <DatasourceRow
              ds={ds}
              siteName={ds.groupId ? (siteNames.get(ds.groupId) ?? 'a web site') : undefined}
              inheritedRefresh={store.data?.refreshInterval ?? 'off'}
              selected={selection.has(ds.id)}
              onSelect={v => selection.set(ds.id, v)}
              open={openSites.has(ds.id)}
              onOpenChange={open => toggleSite(ds.id, open)}
            />
            {openSites.has(ds.id) && <SitePages site={ds} isSelected={selection.has} onSelect={selection.set} />}
          </React.Fragment>
        ))}
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
