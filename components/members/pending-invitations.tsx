'use client'

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Mail } from 'lucide-react'
import { toast } from 'sonner'
import { errorMessage } from '@/components/api-client'
import { EmptyState } from '@/components/layout/empty-state'
import { QueryTable } from '@/components/layout/query-table'
import { Timestamp } from '@/components/layout/timestamp'
import { Button } from '@/components/ui/button'
import { TableCell, TableRow } from '@/components/ui/table'
import { invitationsQueryKey, listInvitations, revokeInvitation } from './members-api'

/** The invitations not yet accepted, each revocable (its link then stops working). */
export function PendingInvitations() {
  const query = useQuery({ queryKey: invitationsQueryKey, queryFn: listInvitations })
  const queryClient = useQueryClient()
  const revoke = useMutation({
    mutationFn: revokeInvitation,
    onSuccess: invitation => toast.success(`Revoked the invitation of ${invitation.email}`),
    onError: error => toast.error('Could not revoke', { description: errorMessage(error) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: invitationsQueryKey }),
  })
  return (
    <section className="grid gap-3" aria-labelledby="pending-invitations">
      <h2 id="pending-invitations" className="text-lg font-semibold">
        Pending invitations
      </h2>
      <QueryTable
        label="Pending invitations"
        query={query}
        isEmpty={query.data?.length === 0}
        empty={<EmptyState icon={Mail} title="No pending invitations">Invitations waiting to be accepted are listed here.</EmptyState>}
        columns={[{ label: 'Email', className: 'pl-4' }, { label: 'Role' }, { label: 'Expires', className: 'hidden sm:table-cell' }, { label: 'Actions', className: 'pr-2 text-right sm:pr-4', srOnly: true }]}
      >
        {query.data?.map(invitation => (
          <TableRow key={invitation.id} data-testid="invitation-row">
            <TableCell className="pl-4 whitespace-normal break-all">{invitation.email}</TableCell>
            <TableCell>{invitation.role}</TableCell>
            <TableCell className="hidden text-muted-foreground sm:table-cell">
              <Timestamp iso={invitation.expiresAt} />
            </TableCell>
            <TableCell className="pr-2 text-right sm:pr-4">
              <Button variant="ghost" size="sm" className="text-destructive hover:text-destructive" disabled={revoke.isPending} onClick={() => revoke.mutate(invitation.id)} aria-label={`Revoke the invitation of ${invitation.email}`}>
                Revoke
              </Button>
            </TableCell>
          </TableRow>
        ))}
      </QueryTable>
    </section>
  )
}
