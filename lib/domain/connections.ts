// An organization's connections to other services (README "Notion"): what the API answers of one, never its secret.
import { z } from 'zod'

export const CONNECTION_PROVIDERS = ['notion'] as const
export type ConnectionProvider = (typeof CONNECTION_PROVIDERS)[number]

/** A connection as the API answers it: no field holds or derives more of the secret than its first characters. */
export const ConnectionResource = z
  .strictObject({
    id: z.string(),
    provider: z.enum(CONNECTION_PROVIDERS),
    name: z.string(),
    secretPrefix: z.string().nullable().describe('The first characters of the token, to recognise it; the token itself is never returned'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Connection' })
export type ConnectionResource = z.infer<typeof ConnectionResource>

const Name = z.string().trim().min(1, 'name must not be empty').max(200)
// Notion's internal integration tokens are "secret_…" or "ntn_…" (about 50 characters); other providers' may differ
const Token = z.string().trim().min(8, 'token is too short to be an integration token').max(500)

export const ConnectionCreateBody = z.object({
  provider: z.enum(CONNECTION_PROVIDERS).default('notion'),
  name: Name,
  token: Token,
})
export type ConnectionCreateBody = z.infer<typeof ConnectionCreateBody>

/** A new name, or a new token (checked with the provider like the first one). */
export const ConnectionPatchBody = z.object({ name: Name.optional(), token: Token.optional() })
export type ConnectionPatchBody = z.infer<typeof ConnectionPatchBody>
