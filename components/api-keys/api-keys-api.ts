// The API keys page's calls to the API, by the endpoints' declarations (components/api-client.ts).
import { api, type RequestOf } from '@/components/api-client'

export const listApiKeys = () => api('GET /api/api-keys')
/** A new key; its secret is in this answer only. */
export const createApiKey = (body: RequestOf<'POST /api/api-keys'>['body']) => api('POST /api/api-keys', { body })
export const revokeApiKey = (id: string) => api('DELETE /api/api-keys/{id}', { params: { id } })
