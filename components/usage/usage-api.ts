// The usage page's call to the API: the only module of components/usage that knows a URL.
import { apiFetch } from '@/components/api-client'
// GET /api/usage's body; type-only, so erased from the browser bundle
import type { UsageReport } from '@/lib/usage/usage-report'

export type { UsageReport }

export const usageQueryKey = ['usage'] as const

/** This month's counters of the organization against its limits. */
export function getUsage(): Promise<UsageReport> {
  return apiFetch('/api/usage')
}
