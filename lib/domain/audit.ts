// The audit log's entry as the API answers it (GET /api/audit-log): zod schema, type inferred.
import { z } from 'zod'

export const AuditEntryResource = z
  .strictObject({
    id: z.string(),
    createdAt: z.iso.datetime(),
    actor: z.strictObject({ type: z.enum(['user', 'api_key']), id: z.string(), label: z.string().describe("The user's email or the key's name, as it was then") }),
    action: z.string().describe('"datastore.created", "api_key.deleted", "datasource.synch"…'),
    target: z.strictObject({ type: z.string(), id: z.string().nullable(), name: z.string().nullable() }).nullable(),
    clientAddress: z.string().nullable(),
    requestId: z.string().nullable(),
  })
  .meta({ id: 'AuditEntry' })
export type AuditEntryResource = z.infer<typeof AuditEntryResource>

export const AuditPage = z.strictObject({ items: z.array(AuditEntryResource), nextCursor: z.string().nullable() })
