// The usage page's calls to the API, by the endpoints' declarations (components/api-client.ts).
import { api, type RequestOf, type ResponseOf } from '@/components/api-client'

export type UsageReport = ResponseOf<'GET /api/usage'>
export type DailyUsage = ResponseOf<'GET /api/usage/daily'>

export const usageQueryKey = ['usage'] as const

/** This month's counters of the organization against its limits. */
export const getUsage = () => api('GET /api/usage')

type DailyFilters = Omit<NonNullable<RequestOf<'GET /api/usage/daily'>['query']>, 'days'>

export const dailyUsageQueryKey = (filters: DailyFilters) => ['usage', 'daily', filters] as const

/** Questions, votes, tokens and datastore queries per day over 30 days, for one agent and/or channel when given. */
export const getDailyUsage = (filters: DailyFilters) => api('GET /api/usage/daily', { query: { days: 30, ...filters } })
