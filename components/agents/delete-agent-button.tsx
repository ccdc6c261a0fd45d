'use client'

import * as React from 'react'
import { useRouter } from 'next/navigation'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Trash2 } from 'lucide-react'
import { toast } from 'sonner'
import { errorMessage } from '@/components/api-client'
import { ConfirmActionButton, DeleteIconButton } from '@/components/layout/confirm-action-button'
import { Button } from '@/components/ui/button'
import { deleteAgent } from './agents-api'
import { agentQueryKey, agentsQueryKey, type Agent } from './types'

/** Deletes an agent after a confirmation; `compact` is the icon button of a table row. */
export function DeleteAgentButton({ agent, compact = false, redirectTo }: { agent: Agent; compact?: boolean; redirectTo?: string }) {
  const [open, setOpen] = React.useState(false)
  const queryClient = useQueryClient()
  const router = useRouter()
  const remove = useMutation({
    mutationFn: () => deleteAgent(agent.id),
    onSuccess: () => {
      setOpen(false)
      toast.success(`Deleted “${agent.name}”`)
      queryClient.setQueryData<Agent[]>(agentsQueryKey, list => list?.filter(a => a.id !== agent.id))
      queryClient.removeQueries({ queryKey: agentQueryKey(agent.id) })
      if (redirectTo) router.push(redirectTo)
    },
    onError: error => toast.error('Could not delete the agent', { description: errorMessage(error) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: agentsQueryKey, exact: true }),
  })
  return (
    <ConfirmActionButton
      open={open}
      onOpenChange={setOpen}
      action={remove}
      trigger={
        compact ? (
          <DeleteIconButton name={agent.name} />
        ) : (
          <Button variant="outline" className="text-destructive hover:text-destructive">
            <Trash2 aria-hidden />
            Delete
          </Button>
        )
      }
      title={`Delete “${agent.name}”?`}
      description="Its conversations are deleted with it, and its chat page and embeds stop answering. Its datastores are kept. This cannot be undone."
      confirmLabel="Delete"
    />
  )
}
