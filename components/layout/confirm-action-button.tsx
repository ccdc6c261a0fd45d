'use client'

import * as React from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Trash2 } from 'lucide-react'
import { toast } from 'sonner'
import { errorMessage } from '@/components/api-client'
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
import { PendingButton } from './pending-button'

/**
 * A button that asks before acting: `trigger` opens a dialog whose destructive `confirmLabel` button runs `action`
 * (a mutation). While it runs the dialog cannot be dismissed; the caller closes it (onOpenChange(false)) once done.
 */
export function ConfirmActionButton({
  open,
  onOpenChange,
  action,
  trigger,
  title,
  description,
  confirmLabel,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  action: { isPending: boolean; mutate: () => void }
  /** The button that opens the dialog. */
  trigger: React.ReactElement
  title: React.ReactNode
  description: React.ReactNode
  confirmLabel: string
}) {
  return (
    <AlertDialog open={open} onOpenChange={next => !action.isPending && onOpenChange(next)}>
      <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={action.isPending}>Cancel</AlertDialogCancel>
          <PendingButton variant="destructive" onClick={() => action.mutate()} pending={action.isPending}>
            {confirmLabel}
          </PendingButton>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  )
}

/** The trash-can icon button of a table row, named "Delete <name>" for screen readers. */
export function DeleteIconButton({ name, ...props }: { name: string } & React.ComponentProps<typeof Button>) {
  return (
    <Button variant="ghost" size="icon" className="size-8 text-destructive hover:text-destructive" aria-label={`Delete ${name}`} title="Delete" {...props}>
      <Trash2 aria-hidden />
    </Button>
  )
}

/**
 * A removal behind a confirmation, with what always goes with it: the mutation, a toast on success (`done`) or failure
 * (`failed`, with the API's reason), and the list it belongs to (`refresh`) read again either way.
 */
export function ConfirmedRemoval({ remove, done, failed, refresh, ...dialog }: {
  remove: () => Promise<unknown>
  done: string
  failed: string
  refresh: readonly unknown[]
  trigger: React.ReactElement
  title: React.ReactNode
  description: React.ReactNode
  confirmLabel: string
}) {
  const [open, setOpen] = React.useState(false)
  const queryClient = useQueryClient()
  const action = useMutation({
    mutationFn: remove,
    onSuccess: () => {
      setOpen(false)
      toast.success(done)
    },
    onError: error => toast.error(failed, { description: errorMessage(error) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: refresh }),
  })
  return <ConfirmActionButton open={open} onOpenChange={setOpen} action={action} {...dialog} />
}
