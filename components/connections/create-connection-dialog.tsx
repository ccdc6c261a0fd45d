'use client'

import * as React from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { closeUnlessPending, CreateDialog } from '@/components/layout/create-dialog'
import { FormField } from '@/components/layout/form-field'
import { Input } from '@/components/ui/input'
import { connectionsQueryKey, createConnection } from './connections-api'

/** Connecting a Notion integration: its name here and its token, which Notion checks before it is saved. */
export function CreateConnectionDialog() {
  const [open, setOpen] = React.useState(false)
  const [name, setName] = React.useState('')
  const [token, setToken] = React.useState('')
  const queryClient = useQueryClient()
  const create = useMutation({
    mutationFn: () => createConnection({ provider: 'notion', name: name.trim(), token: token.trim() }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: connectionsQueryKey })
      toast.success('Notion connected', { description: 'Add its pages to a datastore from the datastore’s “Notion” tab.' })
      onOpenChange(false)
    },
  })
  const onOpenChange = closeUnlessPending(create.isPending, setOpen, () => {
    setName('')
    setToken('')
    create.reset()
  })
  return (
    <CreateDialog
      open={open}
      onOpenChange={onOpenChange}
      triggerLabel="Connect Notion"
      title="Connect Notion"
      description="Create an internal integration at notion.so/my-integrations, share the pages it may read with it (⋯ → Connections), and paste its secret here."
      canSubmit={name.trim().length > 0 && token.trim().length >= 8}
      onSubmit={() => create.mutate()}
      create={create}
      errorId="connection-create-error"
    >
      <FormField id="connection-name" label="Name">
        <Input id="connection-name" value={name} onChange={e => setName(e.target.value)} maxLength={200} placeholder="e.g. Support docs" autoComplete="off" />
      </FormField>
      <FormField id="connection-token" label="Internal Integration Secret">
        <Input id="connection-token" type="password" value={token} onChange={e => setToken(e.target.value)} placeholder="ntn_…" autoComplete="off" />
      </FormField>
    </CreateDialog>
  )
}
