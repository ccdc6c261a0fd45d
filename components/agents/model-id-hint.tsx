'use client'

// Under the agent form's model choice: the model id the server calls for it (its catalogue with MODEL_MAP applied),
// so the name shown is never mistaken for the model used (issue 15, defect 5). Owned by H15b; inserted by str_replace.
import { useServerModels } from '@/components/layout/server-models'
import type { AgentModelName } from '@/lib/domain/models'
import { modelLabel } from './types'

export function ModelIdHint({ modelName }: { modelName: AgentModelName }) {
  const { chatConfigured, modelIds } = useServerModels()
  const id = modelIds?.[modelName]
  // outside the dashboard's provider (a test rendering the form alone) there is nothing to tell
  if (chatConfigured && !id) return null
  return (
    <p className="text-xs text-muted-foreground" data-testid="model-id">
      {chatConfigured ? (
        <>
          Calls <code className="rounded bg-muted px-1 py-0.5 font-mono text-foreground">{id}</code> on this server
        </>
      ) : (
        'No chat model is configured on this server: agents cannot answer yet.'
      )}
    </p>
  )
}

/** A modelName as the dashboard shows it: its label, and the model id the server calls for it when known. */
export function ModelName({ modelName }: { modelName: string }) {
  const { modelIds } = useServerModels()
  const id = modelIds?.[modelName as AgentModelName]
  return (
    <span title={id ? `The server calls ${id}` : undefined}>
      {modelLabel(modelName)}
      {id && <span className="font-mono"> · {id}</span>}
    </span>
  )
}
