'use client'

import * as React from 'react'
import Link from 'next/link'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { errorMessage } from '@/components/api-client'
import { FormAlert, FormField } from '@/components/layout/form-field'
import { PendingButton } from '@/components/layout/pending-button'
import { useUnsavedChanges } from '@/components/layout/use-unsaved-changes'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Select, SelectContent, SelectTrigger, SelectValue } from '@/components/ui/select'
import { Slider } from '@/components/ui/slider'
import { Switch } from '@/components/ui/switch'
import { Textarea } from '@/components/ui/textarea'
import { AppearanceFields } from './agent-appearance-fields'
import { EmbeddingFields } from './agent-embedding-fields'
import { Code, DatastorePicker, DeprecatedPromptSettings, FieldError, fieldErrorsOf, Hint, ModelItems } from './agent-form-fields'
import {
  DESCRIPTION_MAX,
  PROMPT_MAX,
  toAgentBody,
  validateAgentForm,
  type AgentFormErrors,
  type AgentFormValues,
} from './agent-form-schema'
import { createAgent, updateAgent, type AgentBody } from './agents-api'
import { ModelIdHint } from './model-id-hint'
import { RetrievalSettings } from './retrieval-settings'
import { AGENT_MODEL_NAMES, agentQueryKey, agentsQueryKey, type Agent } from './types'

type TextField = 'name' | 'description' | 'systemPrompt' | 'userPrompt' | 'promptTemplate'

const PROMPT_CLASS = 'max-h-96 font-mono text-xs md:text-xs'

/** Create (no agent) or edit (an agent) form with every field of the Agent resource. */
export function AgentForm({
  agent,
  initialValues,
  onSaved,
  cancelHref,
}: {
  agent?: Agent
  initialValues: AgentFormValues
  onSaved: (agent: Agent) => void
  cancelHref: string
}) {
  const [values, setValues] = React.useState(initialValues)
  const [errors, setErrors] = React.useState<AgentFormErrors>({})
  const [submitted, setSubmitted] = React.useState(false)
  const queryClient = useQueryClient()
  // edits not saved yet ask before the page is left (H15b, issue 15 defect 6)
  useUnsavedChanges(JSON.stringify(values) !== JSON.stringify(initialValues))

  const save = useMutation({
    mutationFn: (body: AgentBody) => (agent ? updateAgent(agent.id, body) : createAgent(body)),
    onSuccess: saved => {
      queryClient.setQueryData(agentQueryKey(saved.id), saved)
      void queryClient.invalidateQueries({ queryKey: agentsQueryKey, exact: true })
      toast.success(agent ? 'Changes saved' : `Created “${saved.name}”`)
      onSaved(saved)
    },
    onError: error => {
      const fields = fieldErrorsOf(error)
      setErrors(fields)
      if (Object.keys(fields).length === 0) toast.error(agent ? 'Could not save the agent' : 'Could not create the agent', { description: errorMessage(error) })
    },
  })

  function set<K extends keyof AgentFormValues>(key: K, value: AgentFormValues[K]) {
    const next = { ...values, [key]: value }
    setValues(next)
    if (submitted) setErrors(validateAgentForm(next) ?? {})
  }

  function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    setSubmitted(true)
    const found = validateAgentForm(values)
    setErrors(found ?? {})
    if (found) {
      const first = Object.keys(found)[0].replace('.', '-')
      document.getElementById(`agent-${first}`)?.focus()
      return
    }
    save.mutate(toAgentBody(values))
  }

  const described = (field: keyof AgentFormValues, hint?: string) =>
    [errors[field] ? `agent-${field}-error` : null, hint].filter(Boolean).join(' ') || undefined
  /** What each text control of the form gets: its id, value, change handler and error state (`hint`: its hint's id). */
  const textControl = (field: TextField, hint?: string) => ({
    id: `agent-${field}`,
    value: values[field],
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(field, e.target.value),
    'aria-invalid': !!errors[field] || undefined,
    'aria-describedby': described(field, hint),
  })
  const fieldError = (field: keyof AgentFormValues) => <FieldError id={`agent-${field}-error`} message={errors[field]} />

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-6" aria-label={agent ? 'Edit agent' : 'New agent'}>
      <Card>
        <CardHeader>
          <CardTitle>Identity</CardTitle>
          <CardDescription>How the agent is named in the dashboard and on its public chat page.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <FormField id="agent-name" label="Name">
            <Input {...textControl('name')} placeholder="e.g. Support assistant" autoComplete="off" />
            {fieldError('name')}
          </FormField>
          <FormField id="agent-description" label="Description">
            <Textarea {...textControl('description', 'agent-description-count')} rows={2} placeholder="What it is for (shown on the chat page)" />
            <div className="flex justify-between gap-2">
              {fieldError('description')}
              <span id="agent-description-count" className="ml-auto text-xs text-muted-foreground tabular-nums">
                {values.description.length.toLocaleString()} / {DESCRIPTION_MAX.toLocaleString()}
              </span>
            </div>
          </FormField>
          <div className="flex items-start justify-between gap-4 rounded-lg border p-3">
            <div className="grid gap-1">
              <Label htmlFor="agent-visibility">Public</Label>
              <Hint id="agent-visibility-hint">
                Anyone with the link can chat with a public agent, on its page or embedded in your site, without a key.
              </Hint>
            </div>
            <Switch
              id="agent-visibility"
              checked={values.visibility === 'public'}
              onCheckedChange={v => set('visibility', v ? 'public' : 'private')}
              aria-describedby="agent-visibility-hint"
            />
          </div>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Model</CardTitle>
          <CardDescription>Which model answers, and how freely.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6 sm:grid-cols-2">
          <FormField id="agent-modelName" label="Model" className="h-fit">
            <Select value={values.modelName} onValueChange={v => set('modelName', v as AgentFormValues['modelName'])}>
              <SelectTrigger id="agent-modelName" className="w-full" aria-invalid={!!errors.modelName || undefined}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <ModelItems names={AGENT_MODEL_NAMES} />
              </SelectContent>
            </Select>
            <ModelIdHint modelName={values.modelName} />
            {fieldError('modelName')}
          </FormField>
          <div className="grid h-fit gap-3">
            <div className="flex items-center justify-between">
              <Label htmlFor="agent-temperature" id="agent-temperature-label">
                Temperature
              </Label>
              <span className="font-mono text-sm tabular-nums" data-testid="temperature-value">
                {values.temperature.toFixed(2)}
              </span>
            </div>
            <Slider
              id="agent-temperature"
              aria-labelledby="agent-temperature-label"
              min={0}
              max={1}
              step={0.05}
              value={[values.temperature]}
              onValueChange={([v]) => set('temperature', Math.round(v * 100) / 100)}
              className="py-1"
            />
            <Hint>0 gives the most predictable answers; 1 the most varied.</Hint>
            {fieldError('temperature')}
          </div>
          <FormField id="agent-maxTokens" label="Longest answer (tokens)" className="h-fit">
            <Input
              id="agent-maxTokens"
              inputMode="numeric"
              value={values.maxTokens}
              onChange={e => set('maxTokens', e.target.value)}
              placeholder="the model's own"
              className="w-40"
              aria-invalid={!!errors.maxTokens || undefined}
              aria-describedby={described('maxTokens', 'agent-maxTokens-hint')}
            />
            <Hint id="agent-maxTokens-hint">
              Empty: the model’s own limit. A visitor of a public agent can ask for shorter answers, never longer ones.
            </Hint>
            {fieldError('maxTokens')}
          </FormField>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Instructions</CardTitle>
          <CardDescription>
            Leave both empty for the default: answer only from the datastores, and say so when they do not hold the answer.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <FormField id="agent-systemPrompt" label="System prompt">
            <Textarea
              {...textControl('systemPrompt', 'agent-systemPrompt-hint')}
              rows={4}
              className={PROMPT_CLASS}
              placeholder="You are the support assistant of Acme. Answer briefly, from the context below only.&#10;&#10;{context}"
            />
            <Hint id="agent-systemPrompt-hint">
              Who the agent is and how it answers. <Code>{'{context}'}</Code> is replaced by the fragments retrieved from the
              datastores; without it, they are added after this prompt. Up to {PROMPT_MAX.toLocaleString()} characters.
            </Hint>
            {fieldError('systemPrompt')}
          </FormField>
          <FormField id="agent-userPrompt" label="User prompt">
            <Textarea {...textControl('userPrompt', 'agent-userPrompt-hint')} rows={3} className={PROMPT_CLASS} placeholder="Customer question: {query}" />
            <Hint id="agent-userPrompt-hint">
              Wraps each question. <Code>{'{query}'}</Code> is replaced by the question (without it, the question is added
              after this prompt); <Code>{'{context}'}</Code> may be used here too.
            </Hint>
            {fieldError('userPrompt')}
          </FormField>

          <DeprecatedPromptSettings
            defaultOpen={!!(initialValues.promptType || initialValues.promptTemplate)}
            promptType={values.promptType}
            onPromptTypeChange={v => set('promptType', v)}
          >
            <FormField id="agent-promptTemplate" label="Prompt template">
              <Textarea {...textControl('promptTemplate')} rows={3} className={PROMPT_CLASS} />
              {fieldError('promptTemplate')}
            </FormField>
          </DeprecatedPromptSettings>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle id="agent-datastores-title">Datastores</CardTitle>
          <CardDescription>The agent searches these for every question and answers from what it finds.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-2" role="group" aria-labelledby="agent-datastores-title">
          <DatastorePicker value={values.datastoreIds} onChange={ids => set('datastoreIds', ids)} invalid={!!errors.datastoreIds} />
          {fieldError('datastoreIds')}
        </CardContent>
      </Card>

      <RetrievalSettings values={values} onChange={set} errors={errors} />

      <AppearanceFields value={values.appearance} onChange={v => set('appearance', v)} errors={errors} />

      <EmbeddingFields
        agent={agent}
        allowedDomains={values.allowedDomains}
        requireSignedVisitors={values.requireSignedVisitors}
        onDomainsChange={v => set('allowedDomains', v)}
        onRequireSignedChange={v => set('requireSignedVisitors', v)}
        error={errors.allowedDomains}
      />

      <FormAlert message={Object.keys(errors).length > 0 && 'Some fields need attention: see the messages above.'} />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button asChild variant="outline">
          <Link href={cancelHref}>Cancel</Link>
        </Button>
        <PendingButton type="submit" pending={save.isPending}>
          {agent ? 'Save changes' : 'Create agent'}
        </PendingButton>
      </div>
    </form>
  )
}
