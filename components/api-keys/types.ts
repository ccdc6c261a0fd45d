export interface ApiKey {
  id: string
  name: string
  prefix: string
  createdAt: string
  lastUsedAt: string | null
  revokedAt: string | null
}

export interface CreatedApiKey extends ApiKey {
  /** shown once, right after creation; the server keeps only its hash */
  secret: string
}

export const apiKeysQueryKey = ['api-keys'] as const
