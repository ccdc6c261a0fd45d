'use client'

// A web site's pages, listed under its row when it is opened: the same rows, a page at a time.
import { useInfiniteQuery } from '@tanstack/react-query'
import { PendingButton } from '@/components/layout/pending-button'
import { useErrorToast } from '@/components/layout/query-states'
import { TableCell, TableRow } from '@/components/ui/table'
import { DATASOURCE_COLUMNS, DatasourceRow } from './datasource-row'
import { listDatasources } from './datastores-api'
import { ACTIVE_STATUSES, datasourcesQueryKey, type Datasource } from './types'

const PAGE_SIZE = 50
const LIVE_MS = 1500

export function SitePages({ site, isSelected, onSelect }: { site: Datasource; isSelected: (id: string) => boolean; onSelect: (id: string, selected: boolean) => void }) {
  const query = useInfiniteQuery({
    queryKey: [...datasourcesQueryKey(site.datastoreId), 'site', site.id],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => listDatasources(site.datastoreId, { groupId: site.id, limit: PAGE_SIZE, cursor: pageParam ?? undefined }, signal),
    getNextPageParam: last => last.nextCursor,
    refetchInterval: q => (q.state.data?.pages.some(p => p.items.some(d => ACTIVE_STATUSES.includes(d.status))) ? LIVE_MS : false),
  })
  useErrorToast(query.error, `site-pages-error-${site.id}`, 'the pages of the site')
  const pages = query.data?.pages.flatMap(p => p.items) ?? []
  const note = (text: string) => (
    <TableRow className="hover:bg-transparent">
      <TableCell colSpan={DATASOURCE_COLUMNS} className="py-2 pl-14 text-sm text-muted-foreground">
        {text}
      </TableCell>
    </TableRow>
  )
  if (query.isPending) return note('Loading the pages…')
  if (pages.length === 0) return note(site.status === 'synched' ? 'No pages were found on this site.' : 'Its pages appear here as they are found.')
  return (
    <>
      {pages.map(p => (
        <DatasourceRow key={p.id} ds={p} nested selected={isSelected(p.id)} onSelect={v => onSelect(p.id, v)} />
      ))}
      {query.hasNextPage && (
        <TableRow className="hover:bg-transparent">
          <TableCell colSpan={DATASOURCE_COLUMNS} className="py-2 pl-14">
            <PendingButton variant="outline" size="sm" onClick={() => void query.fetchNextPage()} pending={query.isFetchingNextPage}>
              More pages of {site.name}
            </PendingButton>
          </TableCell>
        </TableRow>
      )}
    </>
  )
}
