'use client'

import * as React from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Loader2, Trash2 } from 'lucide-react'
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
import { apiKeysQueryKey, type ApiKey } from './types'

export function RevokeApiKeyButton({ apiKey }: { apiKey: ApiKey }) {
  const [open, setOpen] = React.useState(false)
  const queryClient = useQueryClient()
  const revoke = useMutation({
    mutationFn: () => apiFetch<ApiKey>(`/api/api-keys/${encodeURIComponent(apiKey.id)}`, { method: 'DELETE' }),
    onSuccess: () => {
      queryClient.setQueryData<ApiKey[]>(apiKeysQueryKey, keys => keys?.filter(k => k.id !== apiKey.id))
      setOpen(false)
      toast.success(`Revoked “${apiKey.name}”`)
    },
    onError: error => toast.error('Could not revoke the key', { description: errorMessage(error) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }),
  })

  return (
    <AlertDialog open={open} onOpenChange={next => !revoke.isPending && setOpen(next)}>
      <AlertDialogTrigger asChild>
        <Button variant="ghost" size="sm" aria-label={`Revoke ${apiKey.name}`} className="text-destructive hover:text-destructive">
          <Trash2 aria-hidden />
          <span className="hidden sm:inline">Revoke</span>
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Revoke “{apiKey.name}”?</AlertDialogTitle>
          <AlertDialogDescription>
            Programs using the key <code className="font-mono">{apiKey.prefix}…</code> will be refused at once. This cannot be
            undone: to restore access, create a new key and update those programs.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={revoke.isPending}>Cancel</AlertDialogCancel>
          <Button variant="destructive" onClick={() => revoke.mutate()} disabled={revoke.isPending}>
            {revoke.isPending && <Loader2 className="animate-spin" aria-hidden />}
            Revoke
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  )
}
