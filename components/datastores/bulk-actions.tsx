'use client'

// Acting on many datasources at once: the selected ones re-synced or deleted, and every failed one retried.
import * as React from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { RefreshCw, RotateCcw, Trash2, X } from 'lucide-react'
import { toast } from 'sonner'
import { errorMessage } from '@/components/api-client'
import { ConfirmActionButton } from '@/components/layout/confirm-action-button'
import { PendingButton } from '@/components/layout/pending-button'
import { Button } from '@/components/ui/button'
import { bulkDatasources, listDatasources } from './datastores-api'
import { datasourcesQueryKey, datastoreQueryKey, datastoresQueryKey } from './types'
import { useCan } from '@/components/layout/member-role'

function useBulk(datastoreId: string, onDone: () => void) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: Parameters<typeof bulkDatasources>[1]) => bulkDatasources(datastoreId, body),
    onSuccess: result => {
      const n = result.ids.length
      toast.success(result.action === 'delete' ? `Deleted ${n} datasource${n === 1 ? '' : 's'}` : `Syncing ${n} datasource${n === 1 ? '' : 's'} again`)
      onDone()
    },
    onError: error => toast.error('Could not do that to the datasources', { description: errorMessage(error) }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: datasourcesQueryKey(datastoreId) })
      void queryClient.invalidateQueries({ queryKey: datastoreQueryKey(datastoreId), exact: true })
      void queryClient.invalidateQueries({ queryKey: datastoresQueryKey, exact: true })
    },
  })
}

/** "Retry all failed (n)", shown while any datasource of the datastore is in error. */
/** Only for a member whose role may change the datastore's content (the API refuses the others). */
export function RetryFailedButton(props: { datastoreId: string; changedAt: number }) {
  return useCan('datastores:write') ? <RetryFailedButtonInner {...props} /> : null
}

function RetryFailedButtonInner({ datastoreId, changedAt }: { datastoreId: string; changedAt: number }) {
  const failed = useQuery({
    queryKey: [...datasourcesQueryKey(datastoreId), 'failed-count'],
    queryFn: ({ signal }) => listDatasources(datastoreId, { status: 'error', limit: 1 }, signal),
  })
  // counted again whenever the table's rows change (a sync that just failed)
  const { refetch } = failed
  React.useEffect(() => {
    if (changedAt) void refetch()
  }, [changedAt, refetch])
  const retry = useBulk(datastoreId, () => undefined)
  const count = failed.data?.total ?? 0
  if (count === 0) return null
  return (
    <PendingButton variant="outline" size="sm" pending={retry.isPending} onClick={() => retry.mutate({ action: 'synch', status: ['error'] })}>
      <RotateCcw aria-hidden />
      Retry all failed ({count.toLocaleString()})
    </PendingButton>
  )
}

/** The bar over the table while datasources are selected. */
/** Only for a member whose role may change the datastore's content (the API refuses the others). */
export function SelectionBar(props: { datastoreId: string; selected: string[]; onClear: () => void }) {
  return useCan('datastores:write') ? <SelectionBarInner {...props} /> : null
}

function SelectionBarInner({ datastoreId, selected, onClear }: { datastoreId: string; selected: string[]; onClear: () => void }) {
  const [confirming, setConfirming] = React.useState(false)
  const synch = useBulk(datastoreId, onClear)
  const remove = useBulk(datastoreId, () => {
    setConfirming(false)
    onClear()
  })
  if (selected.length === 0) return null
  const n = selected.length
  return (
    <div role="region" aria-label="Selected datasources" className="flex flex-wrap items-center gap-2 rounded-lg border bg-muted/40 px-3 py-2" data-testid="selection-bar">
      <span className="text-sm font-medium tabular-nums">{n.toLocaleString()} selected</span>
      <PendingButton variant="outline" size="sm" pending={synch.isPending} onClick={() => synch.mutate({ action: 'synch', ids: selected })}>
        <RefreshCw aria-hidden />
        Sync again
      </PendingButton>
      <ConfirmActionButton
        open={confirming}
        onOpenChange={setConfirming}
        action={{ isPending: remove.isPending, mutate: () => remove.mutate({ action: 'delete', ids: selected }) }}
        trigger={
          <Button variant="outline" size="sm" className="text-red-700 hover:text-red-800 dark:text-red-300">
            <Trash2 aria-hidden />
            Delete
          </Button>
        }
        title={`Delete ${n} datasource${n === 1 ? '' : 's'}?`}
        description="Their chunks leave the datastore at once, so agents stop finding them (a web site's pages go with it). This cannot be undone."
        confirmLabel="Delete"
      />
      <Button variant="ghost" size="sm" onClick={onClear}>
        <X aria-hidden />
        Clear
      </Button>
    </div>
  )
}
