import { z } from 'zod'
import { ROLES } from './access'

// A team on one service (issue 24, DESIGN.md §10): invitations, members' roles, and the organizations a user belongs
// to. Browser-safe: the Members page validates with the same schemas.

export const RoleField = z.enum(ROLES)

/** How long an invitation link stays valid. */
export const INVITATION_TTL_DAYS = 7

export const InvitationBody = z.strictObject({
  email: z.string().trim().toLowerCase().pipe(z.email().max(320)),
  role: RoleField,
})

/** A pending invitation, as listed: its token is never shown again. */
export const InvitationResource = z
  .strictObject({
    id: z.string(),
    email: z.string(),
    role: RoleField,
    createdAt: z.string(),
    expiresAt: z.string(),
    acceptedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
  })
  .meta({ id: 'Invitation' })
export type InvitationResource = z.infer<typeof InvitationResource>

/** The answer to creating one: the token and its link, this once. */
export const CreatedInvitation = z
  .strictObject({ id: z.string(), email: z.string(), role: RoleField, token: z.string(), url: z.string(), expiresAt: z.string(), mailed: z.boolean() })
  .meta({ id: 'CreatedInvitation' })
export type CreatedInvitation = z.infer<typeof CreatedInvitation>

/** Accepting: a name and password create the account; a user signed in with the invited email needs neither. */
export const AcceptInvitationBody = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  password: z.string().min(8, 'at least 8 characters').max(200).optional(),
})

export const AcceptedInvitation = z
  .strictObject({
    organizationId: z.string(),
    organizationName: z.string(),
    email: z.string(),
    role: RoleField,
    /** true: a new account was made (sign in with its password); false: an existing user joined. */
    accountCreated: z.boolean(),
  })
  .meta({ id: 'AcceptedInvitation' })
export type AcceptedInvitation = z.infer<typeof AcceptedInvitation>

export const MemberRoleBody = z.strictObject({ role: RoleField })

export const OrganizationBody = z.strictObject({ name: z.string().trim().min(1).max(200) })

/** An organization the caller belongs to; `role` is null for an API key (a key is the organization's, not a member). */
export const OrganizationResource = z
  .strictObject({ id: z.string(), name: z.string(), role: RoleField.nullable(), current: z.boolean(), createdAt: z.string() })
  .meta({ id: 'Organization' })
export type OrganizationResource = z.infer<typeof OrganizationResource>

export const SwitchOrganizationBody = z.strictObject({ organizationId: z.string().trim().min(1).max(128) })
