'use client'

import * as React from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Trash2 } from 'lucide-react'
import { toast } from 'sonner'
import { errorMessage } from '@/components/api-client'
import { ConfirmActionButton } from '@/components/layout/confirm-action-button'
import { Button } from '@/components/ui/button'
import { revokeApiKey } from './api-keys-api'
import { apiKeysQueryKey, type ApiKey } from './types'

export function RevokeApiKeyButton({ apiKey }: { apiKey: ApiKey }) {
  const [open, setOpen] = React.useState(false)
  const queryClient = useQueryClient()
  const revoke = useMutation({
    mutationFn: () => revokeApiKey(apiKey.id),
    onSuccess: () => {
      queryClient.setQueryData<ApiKey[]>(apiKeysQueryKey, keys => keys?.filter(k => k.id !== apiKey.id))
      setOpen(false)
      toast.success(`Revoked “${apiKey.name}”`)
    },
    onError: error => toast.error('Could not revoke the key', { description: errorMessage(error) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }),
  })

  return (
    <ConfirmActionButton
      open={open}
      onOpenChange={setOpen}
      action={revoke}
      trigger={
        <Button variant="ghost" size="sm" aria-label={`Revoke ${apiKey.name}`} className="text-destructive hover:text-destructive">
          <Trash2 aria-hidden />
          <span className="hidden sm:inline">Revoke</span>
        </Button>
      }
      title={`Revoke “${apiKey.name}”?`}
      description={
        <>
          Programs using the key <code className="font-mono">{apiKey.prefix}…</code> will be refused at once. This cannot be
          undone: to restore access, create a new key and update those programs.
        </>
      }
      confirmLabel="Revoke"
    />
  )
}
