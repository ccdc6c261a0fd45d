'use client'

// What the add forms (web page, web site, text) share: sending once the form's own check passes, and the form's shell.
import * as React from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { errorMessage } from '@/components/api-client'
import { FormAlert } from '@/components/layout/form-field'
import { PendingButton } from '@/components/layout/pending-button'
import { datasourcesQueryKey } from './types'

/**
 * Adding one piece of content: `send` runs once the form's own check (`submit(problem)`) finds no problem; on
 * success the datasources table is refreshed, a toast says `what` was added, and `reset` empties the form.
 */
export function useAddContent(datastoreId: string, what: string, send: () => Promise<unknown>, reset: () => void) {
  const [problem, setProblem] = React.useState<string | null>(null)
  const queryClient = useQueryClient()
  const create = useMutation({
    mutationFn: send,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: datasourcesQueryKey(datastoreId) })
      toast.success(`${what} added`, { description: 'It is queued for syncing: watch its status in the table.' })
      reset()
    },
  })
  function submit(found: string | null) {
    setProblem(found)
    if (!found) create.mutate()
  }
  return { problem, create, submit }
}

/** The shell of an add form: its fields, the server's refusal (`errorId`), and the submit button. */
export function AddForm({
  onSubmit,
  create,
  errorId,
  submitLabel,
  children,
}: {
  onSubmit: () => void
  create: { isPending: boolean; isError: boolean; error: unknown }
  errorId: string
  submitLabel: string
  children: React.ReactNode
}) {
  return (
    <form
      className="grid gap-4"
      noValidate
      onSubmit={e => {
        e.preventDefault()
        onSubmit()
      }}
    >
      {children}
      <FormAlert id={errorId} message={create.isError ? errorMessage(create.error) : null} />
      <div>
        <PendingButton type="submit" pending={create.isPending}>
          {submitLabel}
        </PendingButton>
      </div>
    </form>
  )
}
