'use client'

import * as React from 'react'
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query'
import { ChevronDown, ChevronRight, FileText, Globe, Link2, ListFilter, Loader2, Type } from 'lucide-react'
import { apiFetch } from '@/components/api-client'
import { EmptyState } from '@/components/layout/empty-state'
import { PendingButton } from '@/components/layout/pending-button'
import { useErrorToast } from '@/components/layout/query-states'
import { QueryTable } from '@/components/layout/query-table'
import { Timestamp } from '@/components/layout/timestamp'
import { Label } from '@/components/ui/label'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { TableCell, TableRow } from '@/components/ui/table'
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip'
import { DeleteDatasourceButton, ResyncDatasourceButton } from './datasource-actions'
import { DatasourceStatusBadge } from './datasource-status-badge'
import {
  ACTIVE_STATUSES,
  DATASOURCE_STATUSES,
  DATASOURCE_TYPES,
  datasourcesQueryKey,
  datastoreQueryKey,
  datastoresQueryKey,
  STATUS_LABELS,
  TYPE_LABELS,
  type Datasource,
  type DatasourcePage,
  type DatasourceStatus,
  type DatasourceType,
} from './types'

/** How often the table asks again while something is syncing. */
export const LIVE_REFRESH_MS = 1500
const PAGE_SIZE = 50

const TYPE_ICONS = { file: FileText, web_page: Link2, web_site: Globe, text: Type } as const

const ALL = 'all'

function sourceOf(ds: Datasource): string | null {
  const c = ds.config ?? {}
  const value = c.source_url ?? c.sitemap ?? (ds.metadata?.source as unknown)
  return typeof value === 'string' ? value : null
}

function isHttp(url: string) {
  return /^https?:\/\//i.test(url)
}

function ErrorReason({ datasource, expanded, onToggle }: { datasource: Datasource; expanded: boolean; onToggle: () => void }) {
  const badge = <DatasourceStatusBadge status={datasource.status} />
  if (!datasource.errorMessage) return badge
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <button
          type="button"
          onClick={onToggle}
          aria-expanded={expanded}
          aria-label={`${STATUS_LABELS[datasource.status]}: ${expanded ? 'hide' : 'show'} the reason`}
          className="inline-flex items-center gap-0.5 rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
        >
          {badge}
          {expanded ? <ChevronDown className="size-3.5 text-muted-foreground" aria-hidden /> : <ChevronRight className="size-3.5 text-muted-foreground" aria-hidden />}
        </button>
      </TooltipTrigger>
      <TooltipContent side="top">{datasource.errorMessage}</TooltipContent>
    </Tooltip>
  )
}

function DatasourceRow({ ds, siteName }: { ds: Datasource; siteName?: string }) {
  const [expanded, setExpanded] = React.useState(false)
  const Icon = TYPE_ICONS[ds.type] ?? FileText
  const source = sourceOf(ds)
  return (
    <>
      <TableRow data-testid="datasource-row" data-status={ds.status} data-name={ds.name}>
        <TableCell className="max-w-[18rem] py-2.5 pl-4 whitespace-normal">
          <div className="flex items-start gap-2">
            <Icon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
            <div className="min-w-0">
              <div className="font-medium break-words" data-testid="datasource-name">
                {ds.name}
              </div>
              {source && source !== ds.name && (
                <div className="truncate text-xs text-muted-foreground" title={source}>
                  {isHttp(source) ? (
                    <a href={source} target="_blank" rel="noopener noreferrer" className="underline-offset-4 hover:underline">
                      {source}
                    </a>
                  ) : (
                    source
                  )}
                </div>
              )}
              {siteName && <div className="text-xs text-muted-foreground">Page of {siteName}</div>}
              {ds.custom_id && (
                <div className="text-xs text-muted-foreground">
                  custom_id <code className="font-mono">{ds.custom_id}</code>
                </div>
              )}
            </div>
          </div>
        </TableCell>
        <TableCell className="hidden text-muted-foreground md:table-cell">{TYPE_LABELS[ds.type] ?? ds.type}</TableCell>
        <TableCell>
          <ErrorReason datasource={ds} expanded={expanded} onToggle={() => setExpanded(e => !e)} />
        </TableCell>
        <TableCell className="hidden text-right tabular-nums sm:table-cell">{ds.nbChunks.toLocaleString()}</TableCell>
        <TableCell className="hidden text-right tabular-nums lg:table-cell">{ds.nbTokens.toLocaleString()}</TableCell>
        <TableCell className="hidden text-muted-foreground lg:table-cell">
          {ds.lastSynch ? <Timestamp iso={ds.lastSynch} relative /> : 'never'}
        </TableCell>
        <TableCell className="pr-2 text-right sm:pr-3">
          <div className="flex justify-end gap-0.5">
            <ResyncDatasourceButton datasource={ds} />
            <DeleteDatasourceButton datasource={ds} />
          </div>
        </TableCell>
      </TableRow>
      {expanded && ds.errorMessage && (
        <TableRow className="bg-muted/30 hover:bg-muted/30">
          <TableCell colSpan={7} className="py-2 pl-10 whitespace-normal">
            <p role="note" className="text-sm text-destructive" data-testid="datasource-error">
              {ds.errorMessage}
            </p>
          </TableCell>
        </TableRow>
      )}
    </>
  )
}

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

/**
 * A datastore's datasources, newest first, filtered by status and type. While any listed datasource is pending or
 * running, the table asks again every LIVE_REFRESH_MS and stops once none is.
 */
export function DatasourcesTable({ datastoreId }: { datastoreId: string }) {
  const [status, setStatus] = React.useState<DatasourceStatus | typeof ALL>(ALL)
  const [type, setType] = React.useState<DatasourceType | typeof ALL>(ALL)
  const queryClient = useQueryClient()

  const query = useInfiniteQuery({
    queryKey: [...datasourcesQueryKey(datastoreId), { status, type }],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: String(PAGE_SIZE) })
      if (status !== ALL) params.set('status', status)
      if (type !== ALL) params.set('type', type)
      if (pageParam) params.set('cursor', pageParam)
      return apiFetch<DatasourcePage>(`/api/datastores/${encodeURIComponent(datastoreId)}/datasources?${params}`, { signal })
    },
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
  const siteNames = React.useMemo(() => new Map(items.filter(d => d.type === 'web_site').map(d => [d.id, d.name])), [items])

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
        columns={[
          { label: 'Name', className: 'pl-4' },
          { label: 'Type', className: 'hidden md:table-cell' },
          { label: 'Status' },
          { label: 'Chunks', className: 'hidden text-right sm:table-cell' },
          { label: 'Tokens', className: 'hidden text-right lg:table-cell' },
          { label: 'Last sync', className: 'hidden lg:table-cell' },
          { label: 'Actions', className: 'pr-3 text-right', srOnly: true },
        ]}
      >
        {items.map(ds => (
          <DatasourceRow key={ds.id} ds={ds} siteName={ds.groupId ? (siteNames.get(ds.groupId) ?? 'a web site') : undefined} />
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
