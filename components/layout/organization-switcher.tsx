'use client'

import * as React from 'react'
import { useMutation } from '@tanstack/react-query'
import { Plus } from 'lucide-react'
import { toast } from 'sonner'
import { errorMessage } from '@/components/api-client'
import { createOrganization, switchOrganization } from '@/components/members/members-api'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import type { Role } from '@/lib/domain/access'

export interface OrganizationChoice {
  id: string
  name: string
  role: Role
}

const NEW = '__new__'

/** After a switch the whole dashboard reads another organization: reload it from the start page. */
const reloadInto = () => window.location.assign('/agents')

function NewOrganizationDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [name, setName] = React.useState('')
  const create = useMutation({
    mutationFn: async () => switchOrganization((await createOrganization(name.trim())).id),
    onSuccess: reloadInto,
    onError: error => toast.error('Could not create the organization', { description: errorMessage(error) }),
  })
  return (
    <Dialog open={open} onOpenChange={next => !create.isPending && onOpenChange(next)}>
      <DialogContent>
        <form onSubmit={e => (e.preventDefault(), name.trim() && create.mutate())} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>New organization</DialogTitle>
            <DialogDescription>You will be its owner; your other organizations stay as they are.</DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor="new-organization-name">Name</Label>
            <Input id="new-organization-name" value={name} onChange={e => setName(e.target.value)} maxLength={200} autoFocus />
          </div>
          <DialogFooter>
            <Button type="submit" disabled={!name.trim() || create.isPending}>
              Create and switch
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}

/** The organization the dashboard shows, and the others of the member, in the navigation. */
export function OrganizationSwitcher({ organizations, currentId }: { organizations: OrganizationChoice[]; currentId: string }) {
  const [creating, setCreating] = React.useState(false)
  const change = useMutation({
    mutationFn: switchOrganization,
    onSuccess: reloadInto,
    onError: error => toast.error('Could not switch', { description: errorMessage(error) }),
  })
  return (
    <div className="grid gap-1 px-1">
      <Label htmlFor="organization-switcher" className="px-1.5 text-xs text-muted-foreground">
        Organization
      </Label>
      <Select value={currentId} disabled={change.isPending} onValueChange={id => (id === NEW ? setCreating(true) : id !== currentId && change.mutate(id))}>
        <SelectTrigger id="organization-switcher" className="w-full" data-testid="organization-switcher">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {organizations.map(o => (
            <SelectItem key={o.id} value={o.id}>
              {o.name} <span className="text-muted-foreground">· {o.role}</span>
            </SelectItem>
          ))}
          <SelectItem value={NEW}>
            <Plus aria-hidden /> New organization…
          </SelectItem>
        </SelectContent>
      </Select>
      <NewOrganizationDialog open={creating} onOpenChange={setCreating} />
    </div>
  )
}
