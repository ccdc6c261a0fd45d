// The knowledge-gap queue's calls to the API: the only module of components/gaps that knows a URL.
import { apiFetch } from '@/components/api-client'
// type-only, erased from the browser bundle
import type { GapGroup, GapItem } from '@/lib/gaps/schemas'

export type { GapGroup, GapItem }

export const gapsQueryKey = (agentId?: string) => ['gaps', agentId ?? 'all'] as const

export function listGaps(agentId?: string): Promise<GapGroup[]> {
  return apiFetch(`/api/gaps${agentId ? `?agentId=${encodeURIComponent(agentId)}` : ''}`)
}

export function dismissGaps(messageIds: string[]): Promise<{ resolved: number }> {
  return apiFetch('/api/gaps/dismiss', { method: 'POST', json: { messageIds } })
}

export function answerGaps(body: { messageIds: string[]; datastoreId: string; question: string; answer: string }): Promise<{ resolved: number; datasourceId: string }> {
  return apiFetch('/api/gaps/answer', { method: 'POST', json: body })
}
