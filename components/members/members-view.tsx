'use client'

import { Can } from '@/components/layout/member-role'
import { PageHeader } from '@/components/layout/page-header'
import { InviteForm } from './invite-form'
import { MembersTable } from './members-table'
import { PendingInvitations } from './pending-invitations'

/** The Members page: who is in the organization with which role; admins invite, change roles, remove and revoke. */
export function MembersView() {
  return (
    <div className="grid gap-8">
      <div>
        <PageHeader title="Members" description="The people of this organization and their roles: owner ⊃ admin ⊃ editor ⊃ operator ⊃ viewer." />
        <MembersTable />
      </div>
      <Can scope="admin">
        <InviteForm />
        <PendingInvitations />
      </Can>
    </div>
  )
}
