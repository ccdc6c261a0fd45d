'use client'

import * as React from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Loader2, RefreshCw } from 'lucide-react'
import { toast } from 'sonner'
import { errorMessage } from '@/components/api-client'
import { ConfirmActionButton, DeleteIconButton } from '@/components/layout/confirm-action-button'
import { Button } from '@/components/ui/button'
import { deleteDatasource, synchDatasource } from './datastores-api'
import { ACTIVE_STATUSES, datasourcesQueryKey, datastoreQueryKey, datastoresQueryKey, type Datasource } from './types'
import { HAS_CHILDREN } from '@/lib/domain/datasources'
import { useCan } from '@/components/layout/member-role'

function useRefreshDatastore(datastoreId: string) {
  const queryClient = useQueryClient()
  return () => {
    void queryClient.invalidateQueries({ queryKey: datasourcesQueryKey(datastoreId) })
    void queryClient.invalidateQueries({ queryKey: datastoreQueryKey(datastoreId), exact: true })
    void queryClient.invalidateQueries({ queryKey: datastoresQueryKey, exact: true })
  }
}

/** Only for a member whose role may change the datastore's content (the API refuses the others). */
export function ResyncDatasourceButton(props: { datasource: Datasource }) {
  return useCan('datastores:write') ? <ResyncDatasourceButtonInner {...props} /> : null
}

function ResyncDatasourceButtonInner({ datasource }: { datasource: Datasource }) {
  const refresh = useRefreshDatastore(datasource.datastoreId)
  const synch = useMutation({
    mutationFn: () => synchDatasource(datasource.id),
    onSuccess: () => toast.success(`Syncing “${datasource.name}” again`),
    onError: error => toast.error('Could not start the sync', { description: errorMessage(error) }),
    onSettled: refresh,
  })
  const busy = synch.isPending || ACTIVE_STATUSES.includes(datasource.status)
  return (
    <Button
      variant="ghost"
      size="icon"
      className="size-8"
      aria-label={`Sync ${datasource.name} again`}
      title="Sync again"
      disabled={busy}
      onClick={() => synch.mutate()}
    >
      {synch.isPending ? <Loader2 className="animate-spin" aria-hidden /> : <RefreshCw aria-hidden />}
    </Button>
  )
}

/** Only for a member whose role may change the datastore's content (the API refuses the others). */
export function DeleteDatasourceButton(props: { datasource: Datasource; onDeleted?: () => void }) {
  return useCan('datastores:write') ? <DeleteDatasourceButtonInner {...props} /> : null
}

function DeleteDatasourceButtonInner({ datasource, onDeleted }: { datasource: Datasource; onDeleted?: () => void }) {
  const [open, setOpen] = React.useState(false)
  const refresh = useRefreshDatastore(datasource.datastoreId)
  const remove = useMutation({
    mutationFn: () => deleteDatasource(datasource.id),
    onSuccess: () => {
      setOpen(false)
      toast.success(`Deleted “${datasource.name}”`)
      onDeleted?.()
    },
    onError: error => toast.error('Could not delete the datasource', { description: errorMessage(error) }),
    onSettled: refresh,
  })
  return (
    <ConfirmActionButton
      open={open}
      onOpenChange={setOpen}
      action={remove}
      trigger={<DeleteIconButton name={datasource.name} />}
      title={`Delete “${datasource.name}”?`}
      description={
        <>
          Its chunks leave the datastore at once, so agents stop finding them
          {HAS_CHILDREN[datasource.type] ? ', and so do the pages found on the site' : ''}. This cannot be undone.
        </>
      }
      confirmLabel="Delete"
    />
  )
}
