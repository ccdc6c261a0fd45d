'use client'

import * as React from 'react'
import Link from 'next/link'
import { AlertCircle, ChevronDown, Database } from 'lucide-react'
import { ApiError, errorMessage } from '@/components/api-client'
import { useDatastores } from '@/components/datastores/datastores-table'
import { FormField } from '@/components/layout/form-field'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import { Label } from '@/components/ui/label'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { cn } from '@/lib/utils'
import type { AgentFormErrors, AgentFormValues } from './agent-form-schema'
import { useServerModels } from '@/components/layout/server-models'
import { MODEL_LABELS, type AgentModelName } from './types'

// The small pieces of the agent form: field messages and hints, the server's field errors, the model options, the
// datastore picker, the deprecated prompt settings.

export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null
  return (
    <p id={id} className="flex items-start gap-1.5 text-sm text-destructive">
      <AlertCircle className="mt-0.5 size-3.5 shrink-0" aria-hidden />
      {message}
    </p>
  )
}

export function Hint({ id, children }: { id?: string; children: React.ReactNode }) {
  return (
    <p id={id} className="text-xs text-muted-foreground">
      {children}
    </p>
  )
}

export const Code = ({ children }: { children: React.ReactNode }) => (
  <code className="rounded bg-muted px-1 py-0.5 font-mono text-[0.8em] text-foreground">{children}</code>
)

/**
 * A Select's options for these models: their display names, with the model id each is sent as on this server beside
 * them (the organization's map over MODEL_MAP, issue 27); the chosen one's id is said under the field too.
 */
export function ModelItems({ names }: { names: readonly AgentModelName[] }) {
  const { modelIds } = useServerModels()
  return names.map(m => (
    <SelectItem key={m} value={m} hint={modelIds?.[m] && <span className="font-mono text-xs text-muted-foreground" data-testid="model-choice-id">{modelIds[m]}</span>}>
      {MODEL_LABELS[m]}
    </SelectItem>
  ))
}

/** The server's issues (zod paths) mapped onto the form's fields. */
export function fieldErrorsOf(error: unknown): AgentFormErrors {
  const errors: AgentFormErrors = {}
  if (!(error instanceof ApiError) || !Array.isArray(error.details)) return errors
  for (const issue of error.details as { path?: unknown; message?: string }[]) {
    const parts = Array.isArray(issue.path) ? issue.path.map(String) : typeof issue.path === 'string' ? issue.path.split('.') : []
    // an appearance field's message goes beside that field
    const path = parts[0] === 'appearance' && parts[1] ? `appearance.${parts[1]}` : parts[0]
    if (typeof path === 'string' && issue.message) (errors as Record<string, string>)[path] ??= issue.message
  }
  return errors
}

export function DatastorePicker({
  value,
  onChange,
  invalid,
}: {
  value: string[]
  onChange: (ids: string[]) => void
  invalid: boolean
}) {
  const datastores = useDatastores()
  if (datastores.isPending) return <p className="text-sm text-muted-foreground">Loading datastores…</p>
  if (datastores.isError) return <p className="text-sm text-destructive">Could not load the datastores: {errorMessage(datastores.error)}</p>
  const list = datastores.data ?? []
  if (list.length === 0) {
    return (
      <div className="flex flex-col items-start gap-2 rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
        <span className="flex items-center gap-2">
          <Database className="size-4" aria-hidden />
          No datastores yet: the agent will answer from its prompts alone.
        </span>
        <Button asChild variant="outline" size="sm">
          <Link href="/datastores">Create a datastore</Link>
        </Button>
      </div>
    )
  }
  return (
    <div className={cn('grid max-h-64 gap-1 overflow-y-auto rounded-lg border p-2', invalid && 'border-destructive')}>
      {list.map(ds => {
        const id = `agent-ds-${ds.id}`
        const checked = value.includes(ds.id)
        return (
          <div key={ds.id} className="flex items-center gap-3 rounded-md px-2 py-1.5 hover:bg-muted/50">
            <Checkbox id={id} checked={checked} onCheckedChange={v => onChange(v ? [...value, ds.id] : value.filter(x => x !== ds.id))} />
            <Label htmlFor={id} className="min-w-0 flex-1 cursor-pointer font-normal">
              <span className="truncate font-medium">{ds.name}</span>
              <span className="ml-auto shrink-0 text-xs text-muted-foreground">{ds.nbChunks.toLocaleString()} chunks</span>
            </Label>
          </div>
        )
      })}
    </div>
  )
}

type PromptType = AgentFormValues['promptType']

/** The collapsible promptType and promptTemplate (`children`: its field), kept for clients of the older API. */
export function DeprecatedPromptSettings({
  defaultOpen,
  promptType,
  onPromptTypeChange,
  children,
}: {
  defaultOpen: boolean
  promptType: PromptType
  onPromptTypeChange: (value: PromptType) => void
  children: React.ReactNode
}) {
  const [open, setOpen] = React.useState(defaultOpen)
  return (
    <div className="rounded-lg border">
      <button
        type="button"
        className="flex w-full items-center justify-between gap-2 rounded-lg px-3 py-2 text-left text-sm font-medium outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
        aria-expanded={open}
        aria-controls="agent-legacy"
        onClick={() => setOpen(o => !o)}
      >
        Deprecated prompt settings
        <ChevronDown className={cn('size-4 transition-transform', open && 'rotate-180')} aria-hidden />
      </button>
      {open && (
        <div id="agent-legacy" className="grid gap-4 border-t px-3 py-3">
          <Hint>
            Kept for clients of the older API: <Code>promptType</Code> and <Code>promptTemplate</Code>. The system and user
            prompts above take precedence.
          </Hint>
          <FormField id="agent-promptType" label="Prompt type">
            <Select value={promptType || 'none'} onValueChange={v => onPromptTypeChange(v === 'none' ? '' : (v as PromptType))}>
              <SelectTrigger id="agent-promptType" className="w-full sm:w-64">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="none">None</SelectItem>
                <SelectItem value="customer_support">Customer support</SelectItem>
                <SelectItem value="raw">Raw (the template is the user prompt)</SelectItem>
              </SelectContent>
            </Select>
          </FormField>
          {children}
        </div>
      )}
    </div>
  )
}
