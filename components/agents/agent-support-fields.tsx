'use client'

import { FormField } from '@/components/layout/form-field'
import { Label } from '@/components/ui/label'
import { Switch } from '@/components/ui/switch'
import { Textarea } from '@/components/ui/textarea'
import type { AgentAppearance } from '@/lib/domain/agents'
import { FieldError, Hint } from './agent-form-fields'
import type { AgentFormErrors } from './agent-form-schema'

// The public face's support settings (issue 23): what the chat offers the visitor, and what a question is answered
// while a person from the team has the conversation.

type Set = <K extends keyof AgentAppearance>(key: K, value: AgentAppearance[K]) => void

function Toggle({ id, label, hint, checked, onChange }: { id: string; label: string; hint: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <div className="flex items-start justify-between gap-4 rounded-lg border p-3">
      <div className="grid gap-1">
        <Label htmlFor={id}>{label}</Label>
        <Hint id={`${id}-hint`}>{hint}</Hint>
      </div>
      <Switch id={id} checked={checked} onCheckedChange={onChange} aria-describedby={`${id}-hint`} />
    </div>
  )
}

export function SupportFields({ value, set, errors }: { value: AgentAppearance; set: Set; errors: AgentFormErrors }) {
  const error = errors['appearance.handoffMessage']
  return (
    <div className="grid gap-3 sm:col-span-2 sm:grid-cols-2">
      <Toggle id="agent-appearance-humanHandoff" label="“Talk to a person”" hint="Visitors can ask for someone from the team; the inbox lists them under “Needs a human”." checked={value.humanHandoff} onChange={v => set('humanHandoff', v)} />
      <Toggle id="agent-appearance-markResolved" label="“Resolved”" hint="Visitors can mark their question resolved and start afresh." checked={value.markResolved} onChange={v => set('markResolved', v)} />
      <FormField id="agent-appearance-handoffMessage" label="Answer while a person has the conversation" className="sm:col-span-2">
        <Textarea
          id="agent-appearance-handoffMessage"
          rows={2}
          value={value.handoffMessage}
          onChange={e => set('handoffMessage', e.target.value)}
          aria-invalid={!!error || undefined}
          aria-describedby={error ? 'agent-appearance-handoffMessage-error' : undefined}
        />
        <FieldError id="agent-appearance-handoffMessage-error" message={error} />
      </FormField>
    </div>
  )
}
