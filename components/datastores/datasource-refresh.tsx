'use client'

// A web source's schedule in its row: when it is next fetched again, and its interval, changed in place.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { errorMessage } from '@/components/api-client'
import { Timestamp } from '@/components/layout/timestamp'
import type { RefreshInterval } from '@/lib/domain/refresh'
import { updateDatasource } from './datastores-api'
import { RefreshSelect } from './refresh-select'
import { datasourcesQueryKey, type Datasource } from './types'

export function DatasourceRefresh({ ds, inherited }: { ds: Datasource; inherited: RefreshInterval }) {
  const queryClient = useQueryClient()
  const change = useMutation({
    mutationFn: (refreshInterval: RefreshInterval | null) => updateDatasource(ds.id, { refreshInterval }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: datasourcesQueryKey(ds.datastoreId) }),
    onError: error => toast.error('Could not change the schedule', { description: errorMessage(error) }),
  })
  return (
    <div className="mt-1 grid gap-1 text-xs" data-testid="datasource-refresh">
      <span>
        {ds.nextRefreshAt ? (
          <>
            Next refresh <Timestamp iso={ds.nextRefreshAt} relative />
          </>
        ) : (
          'No scheduled refresh'
        )}
      </span>
      <RefreshSelect
        id={`refresh-${ds.id}`}
        label={`Refresh ${ds.name}`}
        value={ds.refreshInterval}
        inherited={inherited}
        disabled={change.isPending}
        onChange={value => change.mutate(value)}
        className="h-7 w-fit text-xs"
      />
    </div>
  )
}
