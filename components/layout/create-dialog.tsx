'use client'

import * as React from 'react'
import { Plus } from 'lucide-react'
import { errorMessage } from '@/components/api-client'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog'
import { FormAlert } from './form-field'
import { PendingButton } from './pending-button'

/**
 * The dialog's onOpenChange: it stays open while `pending` (the creation is under way), and `onClosed` forgets what was
 * typed (and created) when it closes.
 */
export function closeUnlessPending(pending: boolean, setOpen: (open: boolean) => void, onClosed: () => void) {
  return (next: boolean) => {
    if (!next && pending) return
    setOpen(next)
    if (!next) onClosed()
  }
}

/**
 * A "+ <triggerLabel>" button opening a form to create something: its title, the fields (`children`), the server's
 * refusal, Cancel and Create. `instead` replaces the form (e.g. what was created, shown once).
 */
export function CreateDialog({
  open,
  onOpenChange,
  triggerLabel,
  title,
  description,
  canSubmit,
  onSubmit,
  create,
  errorId,
  instead,
  onInteractOutside,
  children,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  triggerLabel: string
  title: string
  description: string
  /** Create is enabled, and submitting calls onSubmit, only when this holds. */
  canSubmit: boolean
  onSubmit: () => void
  create: { isPending: boolean; isError: boolean; error: unknown }
  errorId?: string
  instead?: React.ReactNode
  onInteractOutside?: React.ComponentProps<typeof DialogContent>['onInteractOutside']
  children: React.ReactNode
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden />
          {triggerLabel}
        </Button>
      </DialogTrigger>
      <DialogContent onInteractOutside={onInteractOutside}>
        {instead ?? (
          <form
            className="grid gap-4"
            onSubmit={e => {
              e.preventDefault()
              if (canSubmit) onSubmit()
            }}
          >
            <DialogHeader>
              <DialogTitle>{title}</DialogTitle>
              <DialogDescription>{description}</DialogDescription>
            </DialogHeader>
            {children}
            <FormAlert id={errorId} message={create.isError ? errorMessage(create.error) : null} />
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={create.isPending}>
                Cancel
              </Button>
              <PendingButton type="submit" pending={create.isPending} disabled={!canSubmit}>
                Create
              </PendingButton>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  )
}
