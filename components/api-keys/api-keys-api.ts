// The API keys page's calls to the API: the only module of components/api-keys that knows a URL.
import { apiFetch } from '@/components/api-client'
import type { ApiKey, CreatedApiKey } from './types'

export function listApiKeys(): Promise<ApiKey[]> {
  return apiFetch('/api/api-keys')
}

/** A new key; its secret is in this answer only. */
export function createApiKey(name: string): Promise<CreatedApiKey> {
  return apiFetch('/api/api-keys', { method: 'POST', json: { name } })
}

export function revokeApiKey(id: string): Promise<ApiKey> {
  return apiFetch(`/api/api-keys/${encodeURIComponent(id)}`, { method: 'DELETE' })
}
