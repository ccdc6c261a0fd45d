'use client'

import * as React from 'react'
import { useRouter } from 'next/navigation'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { AlertCircle, Loader2, Plus } from 'lucide-react'
import { toast } from 'sonner'
import { apiFetch, errorMessage } from '@/components/api-client'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Textarea } from '@/components/ui/textarea'
import { datastoresQueryKey, type Datastore } from './types'

export function CreateDatastoreDialog() {
  const [open, setOpen] = React.useState(false)
  const [name, setName] = React.useState('')
  const [description, setDescription] = React.useState('')
  const queryClient = useQueryClient()
  const router = useRouter()

  const create = useMutation({
    mutationFn: () =>
      apiFetch<Datastore>('/api/datastores', { method: 'POST', json: { name: name.trim(), description: description.trim() || null } }),
    onSuccess: store => {
      void queryClient.invalidateQueries({ queryKey: datastoresQueryKey })
      toast.success(`Created “${store.name}”`)
      setOpen(false)
      router.push(`/datastores/${store.id}`)
    },
  })

  function onOpenChange(next: boolean) {
    if (!next && create.isPending) return
    setOpen(next)
    if (!next) {
      setName('')
      setDescription('')
      create.reset()
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden />
          New datastore
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form
          className="grid gap-4"
          onSubmit={e => {
            e.preventDefault()
            if (name.trim()) create.mutate()
          }}
        >
          <DialogHeader>
            <DialogTitle>New datastore</DialogTitle>
            <DialogDescription>A collection of files, web pages and text that agents search to answer.</DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor="datastore-name">Name</Label>
            <Input
              id="datastore-name"
              value={name}
              onChange={e => setName(e.target.value)}
              placeholder="e.g. Product documentation"
              maxLength={200}
              required
              autoComplete="off"
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="datastore-description">
              Description <span className="font-normal text-muted-foreground">(optional)</span>
            </Label>
            <Textarea
              id="datastore-description"
              value={description}
              onChange={e => setDescription(e.target.value)}
              maxLength={5000}
              rows={3}
              placeholder="What it holds, for your teammates"
            />
          </div>
          {create.isError && (
            <p role="alert" className="flex items-start gap-2 text-sm text-destructive">
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
      </DialogContent>
    </Dialog>
  )
}
