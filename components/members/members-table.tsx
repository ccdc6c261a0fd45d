'use client'

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Trash2, Users } from 'lucide-react'
import { toast } from 'sonner'
import { errorMessage } from '@/components/api-client'
import { ConfirmedRemoval } from '@/components/layout/confirm-action-button'
import { EmptyState } from '@/components/layout/empty-state'
import { useCan, useMemberRole } from '@/components/layout/member-role'
import { QueryTable } from '@/components/layout/query-table'
import { Button } from '@/components/ui/button'
import { TableCell, TableRow } from '@/components/ui/table'
import type { Role } from '@/lib/domain/access'
import { changeMemberRole, listMembers, membersQueryKey, removeMember } from './members-api'
import { RoleSelect } from './role-select'

type Member = Awaited<ReturnType<typeof listMembers>>[number]

function RemoveMemberButton({ member }: { member: Member }) {
  return (
    <ConfirmedRemoval
      remove={() => removeMember(member.id)}
      done={`Removed ${member.email}`}
      failed="Could not remove"
      refresh={membersQueryKey}
      trigger={
        <Button variant="ghost" size="sm" aria-label={`Remove ${member.email}`} className="text-destructive hover:text-destructive">
          <Trash2 aria-hidden />
          <span className="hidden sm:inline">Remove</span>
        </Button>
      }
      title={`Remove ${member.email}?`}
      description="They lose access to this organization at once. Their account, and their other organizations, stay."
      confirmLabel="Remove"
    />
  )
}

function MemberRole({ member }: { member: Member }) {
  const queryClient = useQueryClient()
  const isOwner = useMemberRole() === 'owner'
  const change = useMutation({
    mutationFn: (role: Role) => changeMemberRole(member.id, role),
    onSuccess: updated => toast.success(`${updated.email} is now ${updated.role}`),
    onError: error => toast.error('Could not change the role', { description: errorMessage(error) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: membersQueryKey }),
  })
  // an owner's role is the owners' to change
  if (member.role === 'owner' && !isOwner) return <span>owner</span>
  return <RoleSelect label={`Role of ${member.email}`} value={member.role as Role} onChange={role => change.mutate(role)} mayGrantOwner={isOwner} disabled={change.isPending} />
}

/** The organization's members; admins change roles and remove (the API refuses the rest). */
export function MembersTable() {
  const query = useQuery({ queryKey: membersQueryKey, queryFn: listMembers })
  const manages = useCan('admin')
  const isOwner = useMemberRole() === 'owner'
  return (
    <QueryTable
      label="Members"
      query={query}
      isEmpty={query.data?.length === 0}
      empty={<EmptyState icon={Users} title="No members">Invite someone below.</EmptyState>}
      columns={[{ label: 'Name', className: 'pl-4' }, { label: 'Email' }, { label: 'Role' }, ...(manages ? [{ label: 'Actions', className: 'pr-2 text-right sm:pr-4', srOnly: true }] : [])]}
    >
      {query.data?.map(member => (
        <TableRow key={member.id} data-testid="member-row">
          <TableCell className="pl-4 font-medium">{member.name ?? '—'}</TableCell>
          <TableCell className="whitespace-normal break-all">{member.email}</TableCell>
          <TableCell data-testid="member-role">{manages ? <MemberRole member={member} /> : member.role}</TableCell>
          {manages && (
            <TableCell className="pr-2 text-right sm:pr-4">
              {(member.role !== 'owner' || isOwner) && <RemoveMemberButton member={member} />}
            </TableCell>
          )}
        </TableRow>
      ))}
    </QueryTable>
  )
}
