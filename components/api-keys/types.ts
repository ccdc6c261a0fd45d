// An API key as /api/api-keys answers it (lib/auth/api-keys.ts). The import is type-only: erased from the browser
// bundle, so no server module comes with it.
import type { ApiKeyResource } from '@/lib/auth/api-keys'

export type ApiKey = ApiKeyResource

export interface CreatedApiKey extends ApiKey {
  /** shown once, right after creation; the server keeps only its hash */
  secret: string
}

export const apiKeysQueryKey = ['api-keys'] as const
