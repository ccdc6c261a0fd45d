'use client'

import { CircleX, TriangleAlert } from 'lucide-react'
import { useServerModels } from './server-models'

/**
 * Said on every page while agents cannot answer: no chat model is configured (or MODEL_MAP is invalid), or the model
 * server stopped answering (its last probe failed, lib/models/probe.ts).
 */
export function NoModelBanner() {
  const { chatConfigured, problem, down } = useServerModels()
  if (chatConfigured && down) return <ModelDownBanner message={down} />
  if (chatConfigured) return null
  return (
    <div role="alert" data-testid="no-model-banner" className="border-b border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-50">
      <TriangleAlert className="mr-1.5 inline size-4 align-[-3px]" aria-hidden />
      <strong className="font-semibold">Agents cannot answer yet.</strong> {problem ?? 'No chat model is configured.'} Then restart the service.
    </div>
  )
}

function ModelDownBanner({ message }: { message: string }) {
  return (
    <div role="alert" data-testid="model-down-banner" className="border-b border-red-300 bg-red-50 px-4 py-2 text-sm text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-50">
      <CircleX className="mr-1.5 inline size-4 align-[-3px]" aria-hidden />
      <strong className="font-semibold">The model server is not answering:</strong> {message}. Agents cannot answer until it is back.
    </div>
  )
}

/** A warning the server gives about itself (the embedded database near its ceiling, lib/db/capacity.ts), on every page. */
export function ServerNotice({ message }: { message?: string | null }) {
  if (!message) return null
  return (
    <div role="status" data-testid="server-notice" className="border-b border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-50">
      <TriangleAlert className="mr-1.5 inline size-4 align-[-3px]" aria-hidden />
      {message}
    </div>
  )
}
