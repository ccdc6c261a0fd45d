'use client'

import { useQuery } from '@tanstack/react-query'
import { getAgent, listAgents } from './agents-api'
import { agentQueryKey, agentsQueryKey } from './types'

export function useAgents() {
  return useQuery({ queryKey: agentsQueryKey, queryFn: listAgents })
}

export function useAgent(id: string) {
  return useQuery({ queryKey: agentQueryKey(id), queryFn: () => getAgent(id) })
}
