'use client'

import * as React from 'react'
import Link from 'next/link'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { AlertCircle, ChevronDown, Loader2 } from 'lucide-react'
import { toast } from 'sonner'
import { apiFetch, errorMessage } from '@/components/api-client'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { Slider } from '@/components/ui/slider'
import { Switch } from '@/components/ui/switch'
import { Textarea } from '@/components/ui/textarea'
import { cn } from '@/lib/utils'
import { Code, DatastorePicker, FieldError, fieldErrorsOf, Hint } from './agent-form-fields'
import {
  DESCRIPTION_MAX,
  PROMPT_MAX,
  toAgentBody,
  validateAgentForm,
  type AgentFormErrors,
  type AgentFormValues,
} from './agent-form-schema'
import { AGENT_MODEL_NAMES, agentQueryKey, agentsQueryKey, MODEL_LABELS, type Agent } from './types'

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
  const [legacyOpen, setLegacyOpen] = React.useState(!!(initialValues.promptType || initialValues.promptTemplate))
  const queryClient = useQueryClient()

  const save = useMutation({
    mutationFn: (body: ReturnType<typeof toAgentBody>) =>
      agent
        ? apiFetch<Agent>(`/api/agents/${encodeURIComponent(agent.id)}`, { method: 'PATCH', json: body })
        : apiFetch<Agent>('/api/agents', { method: 'POST', json: body }),
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
      const first = Object.keys(found)[0]
      document.getElementById(`agent-${first}`)?.focus()
      return
    }
    save.mutate(toAgentBody(values))
  }

  const described = (field: keyof AgentFormValues, hint?: string) =>
    [errors[field] ? `agent-${field}-error` : null, hint].filter(Boolean).join(' ') || undefined

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-6" aria-label={agent ? 'Edit agent' : 'New agent'}>
      <Card>
        <CardHeader>
          <CardTitle>Identity</CardTitle>
          <CardDescription>How the agent is named in the dashboard and on its public chat page.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor="agent-name">Name</Label>
            <Input
              id="agent-name"
              value={values.name}
              onChange={e => set('name', e.target.value)}
              placeholder="e.g. Support assistant"
              autoComplete="off"
              aria-invalid={!!errors.name || undefined}
              aria-describedby={described('name')}
            />
            <FieldError id="agent-name-error" message={errors.name} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="agent-description">Description</Label>
            <Textarea
              id="agent-description"
              value={values.description}
              onChange={e => set('description', e.target.value)}
              rows={2}
              placeholder="What it is for (shown on the chat page)"
              aria-invalid={!!errors.description || undefined}
              aria-describedby={described('description', 'agent-description-count')}
            />
            <div className="flex justify-between gap-2">
              <FieldError id="agent-description-error" message={errors.description} />
              <span id="agent-description-count" className="ml-auto text-xs text-muted-foreground tabular-nums">
                {values.description.length.toLocaleString()} / {DESCRIPTION_MAX.toLocaleString()}
              </span>
            </div>
          </div>
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
          <div className="grid h-fit gap-2">
            <Label htmlFor="agent-modelName">Model</Label>
            <Select value={values.modelName} onValueChange={v => set('modelName', v as AgentFormValues['modelName'])}>
              <SelectTrigger id="agent-modelName" className="w-full" aria-invalid={!!errors.modelName || undefined}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {AGENT_MODEL_NAMES.map(m => (
                  <SelectItem key={m} value={m}>
                    {MODEL_LABELS[m]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <FieldError id="agent-modelName-error" message={errors.modelName} />
          </div>
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
            <FieldError id="agent-temperature-error" message={errors.temperature} />
          </div>
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
          <div className="grid gap-2">
            <Label htmlFor="agent-systemPrompt">System prompt</Label>
            <Textarea
              id="agent-systemPrompt"
              value={values.systemPrompt}
              onChange={e => set('systemPrompt', e.target.value)}
              rows={4}
              className="max-h-96 font-mono text-xs md:text-xs"
              placeholder="You are the support assistant of Acme. Answer briefly, from the context below only.&#10;&#10;{context}"
              aria-invalid={!!errors.systemPrompt || undefined}
              aria-describedby={described('systemPrompt', 'agent-systemPrompt-hint')}
            />
            <Hint id="agent-systemPrompt-hint">
              Who the agent is and how it answers. <Code>{'{context}'}</Code> is replaced by the fragments retrieved from the
              datastores; without it, they are added after this prompt. Up to {PROMPT_MAX.toLocaleString()} characters.
            </Hint>
            <FieldError id="agent-systemPrompt-error" message={errors.systemPrompt} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="agent-userPrompt">User prompt</Label>
            <Textarea
              id="agent-userPrompt"
              value={values.userPrompt}
              onChange={e => set('userPrompt', e.target.value)}
              rows={3}
              className="max-h-96 font-mono text-xs md:text-xs"
              placeholder="Customer question: {query}"
              aria-invalid={!!errors.userPrompt || undefined}
              aria-describedby={described('userPrompt', 'agent-userPrompt-hint')}
            />
            <Hint id="agent-userPrompt-hint">
              Wraps each question. <Code>{'{query}'}</Code> is replaced by the question (without it, the question is added
              after this prompt); <Code>{'{context}'}</Code> may be used here too.
            </Hint>
            <FieldError id="agent-userPrompt-error" message={errors.userPrompt} />
          </div>

          <div className="rounded-lg border">
            <button
              type="button"
              className="flex w-full items-center justify-between gap-2 rounded-lg px-3 py-2 text-left text-sm font-medium outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
              aria-expanded={legacyOpen}
              aria-controls="agent-legacy"
              onClick={() => setLegacyOpen(o => !o)}
            >
              Deprecated prompt settings
              <ChevronDown className={cn('size-4 transition-transform', legacyOpen && 'rotate-180')} aria-hidden />
            </button>
            {legacyOpen && (
              <div id="agent-legacy" className="grid gap-4 border-t px-3 py-3">
                <Hint>
                  Kept for clients of the older API: <Code>promptType</Code> and <Code>promptTemplate</Code>. The system and
                  user prompts above take precedence.
                </Hint>
                <div className="grid gap-2">
                  <Label htmlFor="agent-promptType">Prompt type</Label>
                  <Select value={values.promptType || 'none'} onValueChange={v => set('promptType', v === 'none' ? '' : (v as 'raw' | 'customer_support'))}>
                    <SelectTrigger id="agent-promptType" className="w-full sm:w-64">
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      <SelectItem value="none">None</SelectItem>
                      <SelectItem value="customer_support">Customer support</SelectItem>
                      <SelectItem value="raw">Raw (the template is the user prompt)</SelectItem>
                    </SelectContent>
                  </Select>
                </div>
                <div className="grid gap-2">
                  <Label htmlFor="agent-promptTemplate">Prompt template</Label>
                  <Textarea
                    id="agent-promptTemplate"
                    value={values.promptTemplate}
                    onChange={e => set('promptTemplate', e.target.value)}
                    rows={3}
                    className="max-h-96 font-mono text-xs md:text-xs"
                    aria-invalid={!!errors.promptTemplate || undefined}
                    aria-describedby={described('promptTemplate')}
                  />
                  <FieldError id="agent-promptTemplate-error" message={errors.promptTemplate} />
                </div>
              </div>
            )}
          </div>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle id="agent-datastores-title">Datastores</CardTitle>
          <CardDescription>The agent searches these for every question and answers from what it finds.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-2" role="group" aria-labelledby="agent-datastores-title">
          <DatastorePicker value={values.datastoreIds} onChange={ids => set('datastoreIds', ids)} invalid={!!errors.datastoreIds} />
          <FieldError id="agent-datastoreIds-error" message={errors.datastoreIds} />
        </CardContent>
      </Card>

      {Object.keys(errors).length > 0 && (
        <p role="alert" className="flex items-start gap-2 text-sm text-destructive">
          <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
          Some fields need attention: see the messages above.
        </p>
      )}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button asChild variant="outline">
          <Link href={cancelHref}>Cancel</Link>
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending && <Loader2 className="animate-spin" aria-hidden />}
          {agent ? 'Save changes' : 'Create agent'}
        </Button>
      </div>
    </form>
  )
}
