'use client'

import * as React from 'react'
import type { AgentModelName } from '@/lib/domain/models'

/** The model id each modelName maps to on this server (lib/agents/model-catalogue.ts), or null when none is configured. */
export type ServerModels = { chatConfigured: boolean; problem: string | null; modelIds: Record<AgentModelName, string> | null }

const ServerModelsContext = React.createContext<ServerModels>({ chatConfigured: true, problem: null, modelIds: null })

export function ServerModelsProvider({ models, children }: { models: ServerModels; children: React.ReactNode }) {
  return <ServerModelsContext.Provider value={models}>{children}</ServerModelsContext.Provider>
}

export function useServerModels(): ServerModels {
  return React.useContext(ServerModelsContext)
}
