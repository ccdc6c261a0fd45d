'use client'

import * as React from 'react'
import { useMutation } from '@tanstack/react-query'
import { CircleCheck, CircleX, PlugZap } from 'lucide-react'
import { errorMessage } from '@/components/api-client'
import { PendingButton } from '@/components/layout/pending-button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { testConnection, type ConnectionTest } from './models-api'

function StepResult({ label, step }: { label: string; step: ConnectionTest['chat'] }) {
  const Icon = step.ok ? CircleCheck : CircleX
  return (
    <li className="flex items-start gap-2 text-sm" data-testid={`connection-${label.toLowerCase()}`} data-ok={step.ok}>
      <Icon className={step.ok ? 'mt-0.5 size-4 text-emerald-600' : 'mt-0.5 size-4 text-destructive'} aria-hidden />
      <span>
        <strong className="font-medium">{label}</strong> (<code className="font-mono text-xs">{step.model}</code>): {step.ok ? 'ok, ' : 'failed: '}
        {step.message}
      </span>
    </li>
  )
}

/** "Test connection": one tiny chat and one tiny embeddings call, each said ok or failed in plain words. */
export function ConnectionTestCard() {
  const test = useMutation({ mutationFn: testConnection })
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <PlugZap className="size-4 text-muted-foreground" aria-hidden /> Connection
        </CardTitle>
        <CardDescription>One tiny chat (with the model GPT-3.5 Turbo is sent as) and one tiny embeddings call to the server.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <div>
          <PendingButton pending={test.isPending} onClick={() => test.mutate()} variant="outline">
            Test connection
          </PendingButton>
        </div>
        {test.isError && (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(test.error)}
          </p>
        )}
        {test.data && (
          <ul className="grid gap-2" aria-label="Connection test results" aria-live="polite">
            <StepResult label="Chat" step={test.data.chat} />
            <StepResult label="Embeddings" step={test.data.embeddings} />
          </ul>
        )}
      </CardContent>
    </Card>
  )
}
