'use client'

import * as React from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { AlertCircle, Check, Copy, Loader2, Plus, TriangleAlert } from 'lucide-react'
import { toast } from 'sonner'
import { apiFetch, errorMessage } from '@/components/api-client'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { apiKeysQueryKey, type CreatedApiKey } from './types'

async function copyText(text: string, fallbackInput: HTMLInputElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text)
      return true
    }
  } catch {
    // denied, or not a secure context: try the old way below
  }
  if (!fallbackInput) return false
  fallbackInput.focus()
  fallbackInput.select()
  try {
    return document.execCommand('copy')
  } catch {
    return false
  }
}

function SecretStep({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const inputRef = React.useRef<HTMLInputElement>(null)
  const [copied, setCopied] = React.useState(false)

  async function onCopy() {
    if (await copyText(created.secret, inputRef.current)) {
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
        <p className="flex items-start gap-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          This key will not be shown again. If you lose it, revoke it and create a new one.
        </p>
      </div>
      <DialogFooter>
        <Button type="button" onClick={onDone}>
          Done
        </Button>
      </DialogFooter>
    </>
  )
}

export function CreateApiKeyDialog() {
  const [open, setOpen] = React.useState(false)
  const [name, setName] = React.useState('')
  const [created, setCreated] = React.useState<CreatedApiKey | null>(null)
  const queryClient = useQueryClient()

  const create = useMutation({
    mutationFn: (keyName: string) => apiFetch<CreatedApiKey>('/api/api-keys', { method: 'POST', json: { name: keyName } }),
    onSuccess: key => {
      setCreated(key)
      void queryClient.invalidateQueries({ queryKey: apiKeysQueryKey })
    },
  })

  function onOpenChange(next: boolean) {
    if (!next && create.isPending) return
    setOpen(next)
    if (!next) {
      // forget the secret as soon as the dialog closes
      setCreated(null)
      setName('')
      create.reset()
    }
  }

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const trimmed = name.trim()
    if (trimmed) create.mutate(trimmed)
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden />
          Create API key
        </Button>
      </DialogTrigger>
      <DialogContent
        // a stray click outside must not throw away a secret that is shown only once
        onInteractOutside={e => created && e.preventDefault()}
      >
        {created ? (
          <SecretStep created={created} onDone={() => onOpenChange(false)} />
        ) : (
          <form onSubmit={onSubmit} className="grid gap-4">
            <DialogHeader>
              <DialogTitle>Create API key</DialogTitle>
              <DialogDescription>Name the key after where it will be used, so you know which one to revoke later.</DialogDescription>
            </DialogHeader>
            <div className="grid gap-2">
              <Label htmlFor="api-key-name">Name</Label>
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
            </div>
            {create.isError && (
              <p id="api-key-create-error" role="alert" className="flex items-start gap-2 text-sm text-destructive">
                <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
                {errorMessage(create.error)}
              </p>
            )}
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={create.isPending}>
                Cancel
              </Button>
              <Button type="submit" disabled={create.isPending || !name.trim()}>
                {create.isPending && <Loader2 className="animate-spin" aria-hidden />}
                Create
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  )
}
