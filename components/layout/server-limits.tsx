'use client'

import * as React from 'react'

/**
 * The configurable limits in force on this server, read from its settings when the dashboard is served, so the
 * browser checks what the server will check rather than a copy of its defaults. The server keeps the last word.
 */
export interface ServerLimits {
  /** LIMIT_FILE_SIZE_MB: the largest file an upload may carry, in megabytes. */
  maxFileMb: number
}

const ServerLimitsContext = React.createContext<ServerLimits | null>(null)

/** Given the limits by a server component (the dashboard layout), hands them to the client components below. */
export function ServerLimitsProvider({ limits, children }: { limits: ServerLimits; children: React.ReactNode }) {
  return <ServerLimitsContext value={limits}>{children}</ServerLimitsContext>
}

export function useServerLimits(): ServerLimits {
  const limits = React.use(ServerLimitsContext)
  if (!limits) throw new Error('useServerLimits() needs a <ServerLimitsProvider> above it')
  return limits
}
