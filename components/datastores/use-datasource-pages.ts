'use client'

import * as React from 'react'
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query'
import { useErrorToast } from '@/components/layout/query-states'
import { listDatasources } from './datastores-api'
import { ALL, type DatasourceFilters } from './datasources-toolbar'
import { ACTIVE_STATUSES, datasourcesQueryKey, datastoreQueryKey, datastoresQueryKey } from './types'

/** How often the table asks again while something is syncing. */
export const LIVE_REFRESH_MS = 1500
const PAGE_SIZE = 50

/**
 * A datastore's datasources matching `filters`, newest first, a page at a time. While any listed datasource is pending
 * or running, they are asked for again every LIVE_REFRESH_MS, until none is.
 */
export function useDatasourcePages(datastoreId: string, { status, type }: DatasourceFilters) {
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
  useRefreshCountsAfterSync(datastoreId, active)
  return { query, items, total, active }
}

/** When the last sync finishes (`active` falls to 0), the datastore's counts have changed: they are asked for again. */
function useRefreshCountsAfterSync(datastoreId: string, active: number) {
  const queryClient = useQueryClient()
  const wasActive = React.useRef(false)
  React.useEffect(() => {
    if (wasActive.current && active === 0) {
      void queryClient.invalidateQueries({ queryKey: datastoreQueryKey(datastoreId), exact: true })
      void queryClient.invalidateQueries({ queryKey: datastoresQueryKey, exact: true })
    }
    wasActive.current = active > 0
  }, [active, datastoreId, queryClient])
}
