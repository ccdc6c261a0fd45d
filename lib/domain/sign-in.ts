// The signed-in user's account and passwords as the API answers them (issue 24). zod schemas, types inferred.
import { z } from 'zod'
import { ROLES } from './access'

/** A password as the service accepts one. */
export const NewPassword = z.string().min(8, 'at least 8 characters').max(200, 'at most 200 characters')

export const AccountResource = z
  .strictObject({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    organization: z.strictObject({ id: z.string(), name: z.string() }),
    role: z.enum(ROLES),
  })
  .meta({ id: 'Account' })
export type AccountResource = z.infer<typeof AccountResource>

export const PasswordChangeBody = z.strictObject({ currentPassword: z.string().min(1).max(200), newPassword: NewPassword })

/** A reset link an admin hands a member: the URL holds the token, good once until expiresAt. */
export const PasswordResetLink = z.strictObject({ url: z.string(), expiresAt: z.iso.datetime() }).meta({ id: 'PasswordResetLink' })
export type PasswordResetLink = z.infer<typeof PasswordResetLink>

export const PasswordResetUseBody = z.strictObject({ password: NewPassword })
export const PasswordResetDone = z.strictObject({ email: z.string() })
