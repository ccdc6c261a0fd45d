'use client'

import * as React from 'react'
import type { AgentModelName } from '@/lib/domain/models'

/**
 * The model id each modelName maps to on this server (lib/agents/model-catalogue.ts, the organization's map first),
 * or null when none is configured; `down`: why the model server is not answering (its last probe), or null.
 */
export type ServerModels = { chatConfigured: boolean; problem: string | null; modelIds: Record<AgentModelName, string> | null; down?: string | null }

const ServerModelsContext = React.createContext<ServerModels>({ chatConfigured: true, problem: null, modelIds: null, down: null })

export function ServerModelsProvider({ models, children }: { models: ServerModels; children: React.ReactNode }) {
  return <ServerModelsContext.Provider value={models}>{children}</ServerModelsContext.Provider>
}

export function useServerModels(): ServerModels {
  return React.useContext(ServerModelsContext)
}
