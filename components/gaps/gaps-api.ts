// The knowledge-gap queue's calls to the API, by the endpoints' declarations (components/api-client.ts).
import { api, type RequestOf } from '@/components/api-client'
// type-only, erased from the browser bundle
import type { GapGroup, GapItem } from '@/lib/domain/inbox'

export type { GapGroup, GapItem }

export const gapsQueryKey = (agentId?: string) => ['gaps', agentId ?? 'all'] as const

export const listGaps = (agentId?: string) => api('GET /api/gaps', { query: { agentId } })
export const dismissGaps = (messageIds: string[]) => api('POST /api/gaps/dismiss', { body: { messageIds } })
export const answerGaps = (body: RequestOf<'POST /api/gaps/answer'>['body']) => api('POST /api/gaps/answer', { body })
