'use client'

import { DEFAULT_MIN_SCORE } from '@/lib/domain/limits'
import * as React from 'react'
import { FormField, Optional } from '@/components/layout/form-field'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Switch } from '@/components/ui/switch'
import { Textarea } from '@/components/ui/textarea'
import { FieldError, Hint } from './agent-form-fields'
import { NO_ANSWER_MAX, type AgentFormErrors, type AgentFormValues } from './agent-form-schema'

// The agent's retrieval settings (issue 13): follow-ups made standalone before the search, the relevance floor, and
// what the agent is told to say when nothing clears it. README "Retrieval" explains each.

type RetrievalField = 'rewriteQuestions' | 'minScore' | 'noAnswerMessage'

/** A relevance floor: a number from 0 to 1 as typed, '' for none (the search tester uses it too). */
export function MinScoreInput({ id, value, onChange, ...rest }: { id: string; value: string; onChange: (value: string) => void } & Omit<React.ComponentProps<typeof Input>, 'value' | 'onChange'>) {
  return (
    <Input id={id} type="number" inputMode="decimal" min={0} max={1} step={0.05} className="w-28" placeholder="none" value={value} onChange={e => onChange(e.target.value)} {...rest} />
  )
}

/** Whether follow-ups are made standalone before the search. */
function RewriteQuestionsField({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <div className="flex items-start justify-between gap-4 rounded-lg border p-3">
      <div className="grid gap-1">
        <Label htmlFor="agent-rewriteQuestions">Rewrite follow-up questions</Label>
        <Hint id="agent-rewriteQuestions-hint">
          In a conversation, the model first turns a follow-up such as “and how much does it cost?” into a question that
          stands alone (“How much does the Zephyr kettle cost?”) and that is what is searched. One short extra model call
          per follow-up; the question is searched as typed if it fails.
        </Hint>
      </div>
      <Switch
        id="agent-rewriteQuestions"
        checked={checked}
        onCheckedChange={onChange}
        aria-describedby="agent-rewriteQuestions-hint"
      />
    </div>
  )
}

export function RetrievalSettings({
  values,
  onChange,
  errors,
}: {
  values: Pick<AgentFormValues, RetrievalField>
  onChange: <K extends RetrievalField>(key: K, value: AgentFormValues[K]) => void
  errors: AgentFormErrors
}) {
  const describedBy = (field: RetrievalField, hint: string) => [errors[field] ? `agent-${field}-error` : null, hint].filter(Boolean).join(' ')
  return (
    <Card>
      <CardHeader>
        <CardTitle>Retrieval</CardTitle>
        <CardDescription>How questions are searched in the datastores, and what the agent does when nothing relevant is found.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <RewriteQuestionsField checked={values.rewriteQuestions} onChange={v => onChange('rewriteQuestions', v)} />
        <FormField
          id="agent-minScore"
          label={
            <>
              Minimum relevance <Optional>(0 to 1)</Optional>
            </>
          }
        >
          <MinScoreInput
            id="agent-minScore"
            value={values.minScore}
            onChange={v => onChange('minScore', v)}
            aria-invalid={!!errors.minScore || undefined}
            aria-describedby={describedBy('minScore', 'agent-minScore-hint')}
          />
          <Hint id="agent-minScore-hint">
            Fragments scoring below it are not given to the model. When none is left, the agent says it does not know, and the
            answer is listed as having no sources. Try your questions in a datastore’s search tester to see their scores.
            Empty: the default floor ({DEFAULT_MIN_SCORE}); 0: no floor.
          </Hint>
          <FieldError id="agent-minScore-error" message={errors.minScore} />
        </FormField>
        <FormField
          id="agent-noAnswerMessage"
          label={
            <>
              When nothing relevant is found <Optional />
            </>
          }
        >
          <Textarea
            id="agent-noAnswerMessage"
            rows={2}
            value={values.noAnswerMessage}
            onChange={e => onChange('noAnswerMessage', e.target.value)}
            placeholder="Say that the documents do not cover this, and invite the user to rephrase."
            aria-invalid={!!errors.noAnswerMessage || undefined}
            aria-describedby={describedBy('noAnswerMessage', 'agent-noAnswerMessage-hint')}
          />
          <Hint id="agent-noAnswerMessage-hint">
            An instruction to the model, e.g. “Say: Sorry, I can only answer questions about our kettles.” Empty: say it does
            not know and invite a rephrasing. Up to {NO_ANSWER_MAX.toLocaleString()} characters.
          </Hint>
          <FieldError id="agent-noAnswerMessage-error" message={errors.noAnswerMessage} />
        </FormField>
      </CardContent>
    </Card>
  )
}
