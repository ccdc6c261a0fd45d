// The System page's call to the API, by the endpoint's declaration (components/api-client.ts).
import { api, type ResponseOf } from '@/components/api-client'

export type SystemFigures = ResponseOf<'GET /api/system'>
export const systemQueryKey = ['system'] as const
export const getSystem = () => api('GET /api/system')
