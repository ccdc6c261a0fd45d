'use client'

import * as React from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Loader2, RefreshCw, Trash2 } from 'lucide-react'
import { toast } from 'sonner'
import { apiFetch, errorMessage } from '@/components/api-client'
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog'
import { Button } from '@/components/ui/button'
import { datasourcesQueryKey, datastoreQueryKey, datastoresQueryKey, type Datasource } from './types'

function useRefreshDatastore(datastoreId: string) {
  const queryClient = useQueryClient()
  return () => {
    void queryClient.invalidateQueries({ queryKey: datasourcesQueryKey(datastoreId) })
    void queryClient.invalidateQueries({ queryKey: datastoreQueryKey(datastoreId), exact: true })
    void queryClient.invalidateQueries({ queryKey: datastoresQueryKey, exact: true })
  }
}

export function ResyncDatasourceButton({ datasource }: { datasource: Datasource }) {
  const refresh = useRefreshDatastore(datasource.datastoreId)
  const synch = useMutation({
    mutationFn: () => apiFetch<Datasource>(`/api/datasources/${encodeURIComponent(datasource.id)}/synch`, { method: 'POST' }),
    onSuccess: () => toast.success(`Syncing “${datasource.name}” again`),
    onError: error => toast.error('Could not start the sync', { description: errorMessage(error) }),
    onSettled: refresh,
  })
  const busy = synch.isPending || datasource.status === 'pending' || datasource.status === 'running'
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

export function DeleteDatasourceButton({ datasource }: { datasource: Datasource }) {
  const [open, setOpen] = React.useState(false)
  const refresh = useRefreshDatastore(datasource.datastoreId)
  const remove = useMutation({
    mutationFn: () => apiFetch<Datasource>(`/api/datasources/${encodeURIComponent(datasource.id)}`, { method: 'DELETE' }),
    onSuccess: () => {
      setOpen(false)
      toast.success(`Deleted “${datasource.name}”`)
    },
    onError: error => toast.error('Could not delete the datasource', { description: errorMessage(error) }),
    onSettled: refresh,
  })
  return (
    <AlertDialog open={open} onOpenChange={next => !remove.isPending && setOpen(next)}>
      <AlertDialogTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="size-8 text-destructive hover:text-destructive"
          aria-label={`Delete ${datasource.name}`}
          title="Delete"
        >
          <Trash2 aria-hidden />
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete “{datasource.name}”?</AlertDialogTitle>
          <AlertDialogDescription>
            Its chunks leave the datastore at once, so agents stop finding them
            {datasource.type === 'web_site' ? ', and so do the pages found on the site' : ''}. This cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={remove.isPending}>Cancel</AlertDialogCancel>
          <Button variant="destructive" onClick={() => remove.mutate()} disabled={remove.isPending}>
            {remove.isPending && <Loader2 className="animate-spin" aria-hidden />}
            Delete
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  )
}
