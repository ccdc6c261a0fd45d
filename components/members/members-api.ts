// The Members page's and the organization switcher's calls to the API, by the endpoints' declarations.
import { api, type RequestOf } from '@/components/api-client'
import type { Role } from '@/lib/domain/access'

export const listMembers = () => api('GET /api/members')
export const changeMemberRole = (userId: string, role: Role) => api('PATCH /api/members/{userId}', { params: { userId }, body: { role } })
export const removeMember = (userId: string) => api('DELETE /api/members/{userId}', { params: { userId } })
export const listInvitations = () => api('GET /api/invitations')
/** A new invitation; its link is in this answer only. */
export const createInvitation = (body: RequestOf<'POST /api/invitations'>['body']) => api('POST /api/invitations', { body })
export const revokeInvitation = (id: string) => api('DELETE /api/invitations/{id}', { params: { id } })
export const createOrganization = (name: string) => api('POST /api/organizations', { body: { name } })
export const switchOrganization = (organizationId: string) => api('POST /api/session/organization', { body: { organizationId } })

export const membersQueryKey = ['members'] as const
export const invitationsQueryKey = ['invitations'] as const
