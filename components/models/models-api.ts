// The Models page's calls to the API, by the endpoints' declarations (components/api-client.ts).
import { api, type RequestOf, type ResponseOf } from '@/components/api-client'

export type ModelMap = ResponseOf<'GET /api/models/map'>
export type ModelMapChange = RequestOf<'PUT /api/models/map'>['body']
export type ConnectionTest = ResponseOf<'POST /api/models/test'>

export const serverModelsQueryKey = ['models', 'server'] as const
export const modelMapQueryKey = ['models', 'map'] as const

export const getServerModels = () => api('GET /api/models')
export const getModelMap = () => api('GET /api/models/map')
export const saveModelMap = (body: ModelMapChange) => api('PUT /api/models/map', { body })
export const testConnection = () => api('POST /api/models/test', { body: {} })
