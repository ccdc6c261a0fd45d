import { endpoint, endpoints, reply } from '@/lib/api/endpoint'
import { ORGANIZATION_COOKIE } from '@/lib/auth/tenant'
import { OrganizationResource, SwitchOrganizationBody } from '@/lib/domain/members'
import { organizationToSwitchTo } from '@/lib/members'

const YEAR = 365 * 24 * 3600

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/session/organization', {
  POST: endpoint({
    summary: "Switch the session's current organization (one the signed-in user belongs to)",
    description: 'Sets the cookie that names it; every request still checks the membership. Another organization is 404.',
    tag: 'Account',
    access: { scope: 'datastores:read' },
    body: SwitchOrganizationBody,
    response: OrganizationResource,
    // a switch changes what the session sees, not the organization's data
    audit: false,
    handler: async ({ ctx, body, req }) => {
      const org = await organizationToSwitchTo(ctx, body.organizationId)
      const secure = new URL(req.url).protocol === 'https:' ? '; Secure' : ''
      return reply(org, 200, { 'set-cookie': `${ORGANIZATION_COOKIE}=${org.id}; Path=/; Max-Age=${YEAR}; HttpOnly; SameSite=Lax${secure}` })
    },
  }),
})
