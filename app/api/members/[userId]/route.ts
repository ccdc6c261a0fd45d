import { endpoint, endpoints } from '@/lib/api/endpoint'
import { MemberRoleBody } from '@/lib/domain/members'
import { MemberResource } from '@/lib/domain/support'
import { changeMemberRole, removeMember } from '@/lib/members'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/members/{userId}', {
  PATCH: endpoint({
    summary: "Change a member's role",
    description: 'Only an owner may make someone owner or change an owner; the last owner cannot be demoted (409).',
    tag: 'Account',
    access: { scope: 'admin' },
    body: MemberRoleBody,
    response: MemberResource,
    handler: ({ ctx, params, body }) => changeMemberRole(ctx, params.userId, body.role),
  }),
  DELETE: endpoint({
    summary: 'Remove a member from the organization',
    description: 'Their account stays (and their other organizations); the last owner cannot be removed (409).',
    tag: 'Account',
    access: { scope: 'admin' },
    response: MemberResource,
    handler: ({ ctx, params }) => removeMember(ctx, params.userId),
  }),
})
