// The usage page's calls to the API: the only module of components/usage that knows a URL.
import { apiFetch } from '@/components/api-client'
// the bodies of GET /api/usage and GET /api/usage/daily; type-only, so erased from the browser bundle
import type { DailyUsage } from '@/lib/usage/daily'
import type { UsageReport } from '@/lib/usage/usage-report'

export type { DailyUsage, UsageReport }

export const usageQueryKey = ['usage'] as const

/** This month's counters of the organization against its limits. */
export function getUsage(): Promise<UsageReport> {
  return apiFetch('/api/usage')
}

export const dailyUsageQueryKey = (filters: { agentId?: string; channel?: string }) => ['usage', 'daily', filters] as const

/** Questions, votes, tokens and datastore queries per day over 30 days, for one agent and/or channel when given. */
export function getDailyUsage(filters: { agentId?: string; channel?: string }): Promise<DailyUsage> {
  const params = new URLSearchParams({ days: '30' })
  if (filters.agentId) params.set('agentId', filters.agentId)
  if (filters.channel) params.set('channel', filters.channel)
  return apiFetch(`/api/usage/daily?${params}`)
}
