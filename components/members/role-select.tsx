'use client'

import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { ROLES, type Role } from '@/lib/domain/access'

/** What each role adds (DESIGN.md §10), shown next to its name. */
export const ROLE_HINTS: Record<Role, string> = {
  owner: 'everything, including the organization and its owners',
  admin: 'members, API keys, webhooks and settings',
  editor: 'content and agents',
  operator: 'works the conversations',
  viewer: 'reads everything but secrets',
}

/** A role to pick; `owner` only for an owner (the API refuses it to the others). */
export function RoleSelect({ value, onChange, mayGrantOwner, id, label, disabled }: { value: Role; onChange: (role: Role) => void; mayGrantOwner: boolean; id?: string; label: string; disabled?: boolean }) {
  return (
    <Select value={value} onValueChange={v => onChange(v as Role)} disabled={disabled}>
      <SelectTrigger id={id} aria-label={label} className="w-36">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {ROLES.filter(r => mayGrantOwner || r !== 'owner').map(r => (
          <SelectItem key={r} value={r} title={ROLE_HINTS[r]}>
            {r}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  )
}
