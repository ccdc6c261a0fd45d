// An API key as /api/api-keys answers it: the endpoints' declared answers (components/api-client.ts).
import type { ResponseOf } from '@/components/api-client'

export type ApiKey = ResponseOf<'GET /api/api-keys'>[number]
/** With its secret, shown once, right after creation; the server keeps only its hash. */
export type CreatedApiKey = ResponseOf<'POST /api/api-keys'>

export const apiKeysQueryKey = ['api-keys'] as const
