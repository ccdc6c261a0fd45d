import { z } from 'zod'
import { endpoint, endpoints } from '@/lib/api/endpoint'
import { OrganizationBody, OrganizationResource } from '@/lib/domain/members'
import { createOrganization, listOrganizations } from '@/lib/members'

// Every role may list and create: the lowest scope, which all of them hold. Creating is for a member's session (403
// for an API key, which belongs to one organization).
export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/organizations', {
  GET: endpoint({
    summary: 'The organizations the caller belongs to, with their role and which one is current',
    tag: 'Account',
    access: { scope: 'datastores:read' },
    response: z.array(OrganizationResource),
    handler: ({ ctx }) => listOrganizations(ctx),
  }),
  POST: endpoint({
    summary: 'Create an organization, with the caller as its owner',
    tag: 'Account',
    access: { scope: 'datastores:read' },
    body: OrganizationBody,
    response: OrganizationResource,
    status: 201,
    handler: ({ ctx, body }) => createOrganization(ctx, body.name),
  }),
})
