'use client'

import { useQuery } from '@tanstack/react-query'
import { apiFetch } from '@/components/api-client'
import { agentQueryKey, agentsQueryKey, type Agent } from './types'

export function useAgents() {
  return useQuery({ queryKey: agentsQueryKey, queryFn: () => apiFetch<Agent[]>('/api/agents') })
}

export function useAgent(id: string) {
  return useQuery({ queryKey: agentQueryKey(id), queryFn: () => apiFetch<Agent>(`/api/agents/${encodeURIComponent(id)}`) })
}
