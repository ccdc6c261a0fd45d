'use client'

import * as React from 'react'
import { FormField } from '@/components/layout/form-field'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { Textarea } from '@/components/ui/textarea'
import { SUGGESTED_QUESTIONS_MAX } from '@/lib/agents/appearance'
import type { AgentAppearance } from '@/lib/domain/agents'
import { FieldError, Hint } from './agent-form-fields'
import type { AgentFormErrors } from './agent-form-schema'
import { SupportFields } from './agent-support-fields'

// The agent form's "Public face" card (issue 14): how the chat page, the iframe and the bubble look and greet, and
// how much of an answer's sources a visitor sees.

const SOURCES_LABELS: Record<AgentAppearance['sourcesVisibility'], string> = {
  none: 'Hidden',
  titles: 'Titles only',
  full: 'Titles and text',
}

type Set = <K extends keyof AgentAppearance>(key: K, value: AgentAppearance[K]) => void

function ChoiceField<K extends 'colorScheme' | 'bubblePosition' | 'sourcesVisibility'>({
  field,
  label,
  value,
  options,
  set,
}: {
  field: K
  label: string
  value: AgentAppearance[K]
  options: Record<string, string>
  set: Set
}) {
  return (
    <FormField id={`agent-appearance-${field}`} label={label} className="h-fit">
      <Select value={value} onValueChange={v => set(field, v as AgentAppearance[K])}>
        <SelectTrigger id={`agent-appearance-${field}`} className="w-full">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {Object.entries(options).map(([v, text]) => (
            <SelectItem key={v} value={v}>
              {text}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </FormField>
  )
}

function SuggestedQuestions({ value, set, errors }: { value: string[]; set: Set; errors: AgentFormErrors }) {
  const slots = Array.from({ length: SUGGESTED_QUESTIONS_MAX }, (_, i) => value[i] ?? '')
  const change = (i: number, text: string) => {
    const next = [...slots]
    next[i] = text
    set('suggestedQuestions', next) // empty slots are dropped when the form is sent
  }
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-sm font-medium">Suggested questions</legend>
      {slots.map((q, i) => (
        <Input key={i} id={`agent-appearance-suggested-${i}`} aria-label={`Suggested question ${i + 1}`} value={q} onChange={e => change(i, e.target.value)} placeholder={i === 0 ? 'e.g. What are your opening hours?' : undefined} />
      ))}
      <Hint>Offered as buttons before the visitor asks anything. Up to {SUGGESTED_QUESTIONS_MAX}.</Hint>
      <FieldError id="agent-appearance-suggestedQuestions-error" message={errors['appearance.suggestedQuestions']} />
    </fieldset>
  )
}

export function AppearanceFields({ value, onChange, errors }: { value: AgentAppearance; onChange: (v: AgentAppearance) => void; errors: AgentFormErrors }) {
  const set: Set = (key, v) => onChange({ ...value, [key]: v })
  const text = (field: 'displayName' | 'avatarUrl' | 'pageTitle' | 'welcomeMessage') => ({
    id: `agent-appearance-${field}`,
    value: value[field] ?? '',
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(field, e.target.value),
    'aria-invalid': !!errors[`appearance.${field}`] || undefined,
    'aria-describedby': errors[`appearance.${field}`] ? `agent-appearance-${field}-error` : undefined,
  })
  const error = (field: keyof AgentAppearance) => <FieldError id={`agent-appearance-${field}-error`} message={errors[`appearance.${field}`]} />
  return (
    <Card>
      <CardHeader>
        <CardTitle>Public face</CardTitle>
        <CardDescription>How the chat page, the embedded chat and the bubble look to visitors.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-2">
        <FormField id="agent-appearance-displayName" label="Chat heading" optional>
          <Input {...text('displayName')} placeholder="The agent’s name" autoComplete="off" />
          {error('displayName')}
        </FormField>
        <FormField id="agent-appearance-pageTitle" label="Page title" optional>
          <Input {...text('pageTitle')} placeholder="The display name" autoComplete="off" />
          {error('pageTitle')}
        </FormField>
        <FormField id="agent-appearance-avatarUrl" label="Avatar URL" optional className="sm:col-span-2">
          <Input {...text('avatarUrl')} type="url" placeholder="https://example.com/logo.png" autoComplete="off" />
          {error('avatarUrl')}
        </FormField>
        <FormField id="agent-appearance-primaryColor" label="Primary colour" className="h-fit">
          <div className="flex gap-2">
            <input
              type="color"
              aria-label="Pick the primary colour"
              value={/^#[0-9a-f]{6}$/i.test(value.primaryColor) ? value.primaryColor : '#000000'}
              onChange={e => set('primaryColor', e.target.value)}
              className="h-9 w-12 shrink-0 cursor-pointer rounded-md border bg-transparent p-1"
            />
            <Input
              id="agent-appearance-primaryColor"
              value={value.primaryColor}
              onChange={e => set('primaryColor', e.target.value)}
              className="font-mono"
              aria-invalid={!!errors['appearance.primaryColor'] || undefined}
            />
          </div>
          {error('primaryColor')}
        </FormField>
        <ChoiceField field="colorScheme" label="Colours" value={value.colorScheme} options={{ light: 'Light', dark: 'Dark' }} set={set} />
        <ChoiceField field="bubblePosition" label="Bubble position" value={value.bubblePosition} options={{ 'bottom-right': 'Bottom right', 'bottom-left': 'Bottom left' }} set={set} />
        <ChoiceField field="sourcesVisibility" label="Sources shown to visitors" value={value.sourcesVisibility} options={SOURCES_LABELS} set={set} />
        <FormField id="agent-appearance-welcomeMessage" label="Welcome message" className="sm:col-span-2">
          <Textarea {...text('welcomeMessage')} rows={2} />
          {error('welcomeMessage')}
        </FormField>
        <div className="sm:col-span-2">
          <SuggestedQuestions value={value.suggestedQuestions} set={set} errors={errors} />
        </div>
        <SupportFields value={value} set={set} errors={errors} />
        <p className="text-xs text-muted-foreground sm:col-span-2">
          Sources: the dashboard and API keys always see everything; visitors see what you choose here. With “Titles only”
          they see which documents an answer used, never the documents’ text.
        </p>
      </CardContent>
    </Card>
  )
}
