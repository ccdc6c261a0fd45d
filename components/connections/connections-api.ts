// The connections area's calls to the API, by the endpoints' declarations (components/api-client.ts).
import { api, type RequestOf, type ResponseOf } from '@/components/api-client'

export type Connection = ResponseOf<'GET /api/connections/{id}'>

export const connectionsQueryKey = ['connections'] as const
export const listConnections = () => api('GET /api/connections')
/** Checked with Notion before it is saved: a refused token is a 400 saying so. */
export const createConnection = (body: RequestOf<'POST /api/connections'>['body']) => api('POST /api/connections', { body })
export const deleteConnection = (id: string) => api('DELETE /api/connections/{id}', { params: { id } })
