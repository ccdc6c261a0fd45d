'use client'

import * as React from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { KeyRound } from 'lucide-react'
import { toast } from 'sonner'
import { errorMessage } from '@/components/api-client'
import { CopyButton } from '@/components/copy-button'
import { FormField } from '@/components/layout/form-field'
import { PendingButton } from '@/components/layout/pending-button'
import { DoneFooter, ShownOnceNotice } from '@/components/layout/secret-shown-once'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Switch } from '@/components/ui/switch'
import { Textarea } from '@/components/ui/textarea'
import { Code, FieldError, Hint } from './agent-form-fields'
import { rotateVisitorSecret } from './agents-api'
import { agentQueryKey, type Agent } from './types'

// The agent form's "Where it may appear" card (issue 14): the domain allow-list, signed visitors only, and the
// visitor signing secret (shown once, rotatable).

function VisitorSecret({ agent }: { agent: Agent }) {
  const [secret, setSecret] = React.useState<string | null>(null)
  const queryClient = useQueryClient()
  const rotate = useMutation({
    mutationFn: () => rotateVisitorSecret(agent.id),
    onSuccess: created => {
      setSecret(created.secret)
      queryClient.setQueryData<Agent>(agentQueryKey(agent.id), old => (old ? { ...old, visitorSecretPrefix: created.prefix } : old))
    },
    onError: error => toast.error('Could not create the secret', { description: errorMessage(error) }),
  })
  const prefix = agent.visitorSecretPrefix
  return (
    <div className="grid gap-2 rounded-lg border p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="grid gap-1">
          <span className="flex items-center gap-1.5 text-sm font-medium">
            <KeyRound className="size-4" aria-hidden /> Visitor signing secret
          </span>
          <Hint id="agent-visitor-secret-hint">
            {prefix ? (
              <>
                In use: <Code>{prefix}…</Code>. A new one replaces it at once.
              </>
            ) : (
              'None yet. Your server signs visitor ids with it (see “Put an agent on your site” in the README).'
            )}
          </Hint>
        </div>
        <PendingButton type="button" variant="outline" size="sm" pending={rotate.isPending} onClick={() => rotate.mutate()} aria-describedby="agent-visitor-secret-hint">
          {prefix ? 'Rotate secret' : 'Create secret'}
        </PendingButton>
      </div>
      <Dialog open={secret !== null} onOpenChange={open => !open && setSecret(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Visitor signing secret</DialogTitle>
            <DialogDescription>Keep it on your server: it signs your visitors’ ids. Never put it in a web page.</DialogDescription>
          </DialogHeader>
          <div className="flex gap-2">
            <Input readOnly value={secret ?? ''} aria-label="Visitor signing secret" data-testid="new-visitor-secret" className="font-mono text-xs md:text-xs" onFocus={e => e.currentTarget.select()} />
            <CopyButton text={secret ?? ''} className="shrink-0" />
          </div>
          <ShownOnceNotice>This secret will not be shown again. If you lose it, rotate it and update your server.</ShownOnceNotice>
          <DoneFooter onDone={() => setSecret(null)} />
        </DialogContent>
      </Dialog>
    </div>
  )
}

export function EmbeddingFields({
  agent,
  allowedDomains,
  requireSignedVisitors,
  onDomainsChange,
  onRequireSignedChange,
  error,
}: {
  agent?: Agent
  allowedDomains: string
  requireSignedVisitors: boolean
  onDomainsChange: (v: string) => void
  onRequireSignedChange: (v: boolean) => void
  error?: string
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Where it may appear</CardTitle>
        <CardDescription>Which sites may embed the public chat, and whether visitors must be signed by your server.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <FormField id="agent-allowedDomains" label="Allowed domains" optional>
          <Textarea
            id="agent-allowedDomains"
            value={allowedDomains}
            onChange={e => onDomainsChange(e.target.value)}
            rows={3}
            className="font-mono text-xs md:text-xs"
            placeholder={'example.com\n*.example.com'}
            aria-invalid={!!error || undefined}
            aria-describedby={['agent-allowedDomains-hint', error ? 'agent-allowedDomains-error' : ''].filter(Boolean).join(' ')}
          />
          <Hint id="agent-allowedDomains-hint">
            One a line; empty means any site. Other sites can neither frame the chat nor query it from a browser. This stops
            browsers, not scripts: rate limits and signed visitors do that.
          </Hint>
          <FieldError id="agent-allowedDomains-error" message={error} />
        </FormField>
        <div className="flex items-start justify-between gap-4 rounded-lg border p-3">
          <div className="grid gap-1">
            <Label htmlFor="agent-requireSignedVisitors">Signed visitors only</Label>
            <Hint id="agent-requireSignedVisitors-hint">Refuse questions from visitors your server has not signed.</Hint>
          </div>
          <Switch id="agent-requireSignedVisitors" checked={requireSignedVisitors} onCheckedChange={onRequireSignedChange} aria-describedby="agent-requireSignedVisitors-hint" />
        </div>
        {agent && <VisitorSecret agent={agent} />}
      </CardContent>
    </Card>
  )
}
