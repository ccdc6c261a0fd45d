'use client'

import * as React from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Check, Copy } from 'lucide-react'
import { toast } from 'sonner'
import { copyToClipboard } from '@/components/copy-button'
import { closeUnlessPending, CreateDialog } from '@/components/layout/create-dialog'
import { FormField } from '@/components/layout/form-field'
import { DoneFooter, ShownOnceNotice } from '@/components/layout/secret-shown-once'
import { Button } from '@/components/ui/button'
import { DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { createApiKey } from './api-keys-api'
import type { Scope } from '@/lib/domain/access'
import { KeyScopesFields } from './key-scopes-fields'
import { apiKeysQueryKey, type CreatedApiKey } from './types'

function SecretStep({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const inputRef = React.useRef<HTMLInputElement>(null)
  const [copied, setCopied] = React.useState(false)

  async function onCopy() {
    if (await copyToClipboard(created.secret, inputRef.current)) {
      setCopied(true)
      toast.success('Copied')
      setTimeout(() => setCopied(false), 2000)
    } else {
      inputRef.current?.select()
      toast.error('Could not copy', { description: 'The key is selected: copy it with Ctrl+C (⌘C on a Mac).' })
    }
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>API key created</DialogTitle>
        <DialogDescription>
          Copy the key for “{created.name}” now and store it somewhere safe.
        </DialogDescription>
      </DialogHeader>
      <div className="grid gap-2">
        <Label htmlFor="new-api-key-secret">Your new API key</Label>
        <div className="flex gap-2">
          <Input
            ref={inputRef}
            id="new-api-key-secret"
            data-testid="new-api-key-secret"
            readOnly
            value={created.secret}
            spellCheck={false}
            autoComplete="off"
            onFocus={e => e.currentTarget.select()}
            className="font-mono text-xs md:text-xs"
          />
          <Button type="button" variant="outline" onClick={onCopy} className="shrink-0">
            {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
            Copy
          </Button>
        </div>
        <ShownOnceNotice>This key will not be shown again. If you lose it, revoke it and create a new one.</ShownOnceNotice>
      </div>
      <DoneFooter onDone={onDone} />
    </>
  )
}

export function CreateApiKeyDialog() {
  const [open, setOpen] = React.useState(false)
  const [name, setName] = React.useState('')
  const [scopes, setScopes] = React.useState<Scope[]>([])
  const [created, setCreated] = React.useState<CreatedApiKey | null>(null)
  const queryClient = useQueryClient()

  const create = useMutation({
    mutationFn: createApiKey,
    onSuccess: key => {
      setCreated(key)
      void queryClient.invalidateQueries({ queryKey: apiKeysQueryKey })
    },
  })

  // forget the secret as soon as the dialog closes
  const onOpenChange = closeUnlessPending(create.isPending, setOpen, () => {
    setCreated(null)
    setName('')
    setScopes([])
    create.reset()
  })

  return (
    <CreateDialog
      open={open}
      onOpenChange={onOpenChange}
      triggerLabel="Create API key"
      title="Create API key"
      description="Name the key after where it will be used, so you know which one to revoke later."
      canSubmit={!!name.trim()}
      onSubmit={() => create.mutate({ name: name.trim(), scopes: scopes.length ? scopes : undefined })}
      create={create}
      errorId="api-key-create-error"
      instead={created && <SecretStep created={created} onDone={() => onOpenChange(false)} />}
      // a stray click outside must not throw away a secret that is shown only once
      onInteractOutside={e => created && e.preventDefault()}
    >
      <FormField id="api-key-name" label="Name">
        <Input
          id="api-key-name"
          name="name"
          value={name}
          onChange={e => setName(e.target.value)}
          placeholder="e.g. Production website"
          maxLength={100}
          required
          autoComplete="off"
          aria-invalid={create.isError || undefined}
          aria-describedby={create.isError ? 'api-key-create-error' : undefined}
        />
      </FormField>
      <KeyScopesFields scopes={scopes} onChange={setScopes} />
    </CreateDialog>
  )
}
