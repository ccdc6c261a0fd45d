'use client'

import * as React from 'react'
import { ROLE_SCOPES, type Role, type Scope } from '@/lib/domain/access'

// What the signed-in member's role lets them do, for hiding what they cannot (DESIGN.md §10). Read from the role's
// scopes (lib/domain/access.ts ROLE_SCOPES), the same the API enforces: the API stays the enforcement, this only
// spares a member buttons that would answer 403.

const RoleContext = React.createContext<Role>('viewer')

export function MemberRoleProvider({ role, children }: { role: Role; children: React.ReactNode }) {
  return <RoleContext.Provider value={role}>{children}</RoleContext.Provider>
}

export function useMemberRole(): Role {
  return React.useContext(RoleContext)
}

/** Whether the member's role holds `scope`. */
export function useCan(scope: Scope): boolean {
  return ROLE_SCOPES[useMemberRole()].includes(scope)
}

/** Its children, only for a member whose role holds `scope`. */
export function Can({ scope, children }: { scope: Scope; children: React.ReactNode }) {
  return useCan(scope) ? <>{children}</> : null
}
