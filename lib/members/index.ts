// Members, invitations and organizations (issue 24): plain functions with a tenant context, for the routes.
export { acceptInvitation } from './accept'
export { createInvitation, listInvitations, revokeInvitation } from './invitations'
export { changeMemberRole, removeMember } from './members'
export { createOrganization, listOrganizations, organizationToSwitchTo } from './organizations'
