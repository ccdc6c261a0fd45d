'use client'

import * as React from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { errorMessage } from '@/components/api-client'
import { CopyButton } from '@/components/copy-button'
import { useMemberRole } from '@/components/layout/member-role'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import type { Role } from '@/lib/domain/access'
import { createInvitation, invitationsQueryKey } from './members-api'
import { RoleSelect } from './role-select'

function InvitationLink({ url, mailed }: { url: string; mailed: boolean }) {
  const ref = React.useRef<HTMLInputElement>(null)
  return (
    <div className="grid gap-2 rounded-md border bg-muted/40 p-3">
      <Label htmlFor="invitation-link">{mailed ? 'Sent by e-mail. The link, to copy as well:' : 'Send this link to the person you invited:'}</Label>
      <div className="flex gap-2">
        <Input ref={ref} id="invitation-link" data-testid="invitation-link" readOnly value={url} onFocus={e => e.currentTarget.select()} className="font-mono text-xs md:text-xs" />
        <CopyButton text={url} fallbackRef={ref} variant="outline" className="shrink-0" />
      </div>
      <p className="text-xs text-muted-foreground">It works once, for 7 days, and is not shown again.</p>
    </div>
  )
}

/** Invites someone by email with a role; the answer's link is shown to copy (and mailed when SMTP_URL is set). */
export function InviteForm() {
  const [email, setEmail] = React.useState('')
  const [role, setRole] = React.useState<Role>('viewer')
  const isOwner = useMemberRole() === 'owner'
  const queryClient = useQueryClient()
  const invite = useMutation({
    mutationFn: () => createInvitation({ email: email.trim(), role }),
    onSuccess: () => {
      setEmail('')
      void queryClient.invalidateQueries({ queryKey: invitationsQueryKey })
    },
    onError: error => toast.error('Could not invite', { description: errorMessage(error) }),
  })
  return (
    <Card>
      <CardHeader>
        <CardTitle>Invite someone</CardTitle>
        <CardDescription>They choose their name and password when they open the link.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form className="flex flex-col gap-3 sm:flex-row sm:items-end" onSubmit={e => (e.preventDefault(), email.trim() && invite.mutate())}>
          <div className="grid flex-1 gap-2">
            <Label htmlFor="invite-email">Email</Label>
            <Input id="invite-email" type="email" value={email} onChange={e => setEmail(e.target.value)} placeholder="colleague@example.com" autoComplete="off" required />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="invite-role">Role</Label>
            <RoleSelect id="invite-role" label="Role of the invitee" value={role} onChange={setRole} mayGrantOwner={isOwner} />
          </div>
          <Button type="submit" disabled={!email.trim() || invite.isPending}>
            Invite
          </Button>
        </form>
        {invite.data && <InvitationLink url={invite.data.url} mailed={invite.data.mailed} />}
      </CardContent>
    </Card>
  )
}
