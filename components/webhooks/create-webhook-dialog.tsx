'use client'

import * as React from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { CopyButton } from '@/components/copy-button'
import { closeUnlessPending, CreateDialog } from '@/components/layout/create-dialog'
import { FormField } from '@/components/layout/form-field'
import { DoneFooter, ShownOnceNotice } from '@/components/layout/secret-shown-once'
import { DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { createWebhook } from './webhooks-api'
import { describeEvent, WEBHOOK_EVENTS, webhooksQueryKey, type CreatedWebhook, type WebhookEvent } from './types'

function SecretStep({ created, onDone }: { created: CreatedWebhook; onDone: () => void }) {
  return (
    <>
      <DialogHeader>
        <DialogTitle>Webhook created</DialogTitle>
        <DialogDescription>Copy its signing secret now: your receiver checks each delivery’s signature with it.</DialogDescription>
      </DialogHeader>
      <div className="grid gap-2">
        <div className="flex gap-2">
          <Input readOnly value={created.secret} data-testid="new-webhook-secret" className="font-mono text-xs md:text-xs" onFocus={e => e.currentTarget.select()} />
          <CopyButton text={created.secret} className="shrink-0" />
        </div>
        <ShownOnceNotice>This secret will not be shown again. If you lose it, delete the webhook and create a new one.</ShownOnceNotice>
      </div>
      <DoneFooter onDone={onDone} />
    </>
  )
}

export function CreateWebhookDialog() {
  const [open, setOpen] = React.useState(false)
  const [url, setUrl] = React.useState('')
  const [events, setEvents] = React.useState<WebhookEvent[]>(['datasource.synched', 'datasource.failed'])
  const [created, setCreated] = React.useState<CreatedWebhook | null>(null)
  const queryClient = useQueryClient()
  const create = useMutation({
    mutationFn: () => createWebhook({ url: url.trim(), events }),
    onSuccess: hook => {
      setCreated(hook)
      void queryClient.invalidateQueries({ queryKey: webhooksQueryKey })
    },
  })
  const onOpenChange = closeUnlessPending(create.isPending, setOpen, () => {
    setCreated(null)
    setUrl('')
    create.reset()
  })
  const toggle = (event: WebhookEvent) => setEvents(list => (list.includes(event) ? list.filter(e => e !== event) : [...list, event]))
  return (
    <CreateDialog
      open={open}
      onOpenChange={onOpenChange}
      triggerLabel="Add webhook"
      title="Add webhook"
      description="We POST a signed JSON body to this address when one of the chosen events happens."
      canSubmit={/^https?:\/\/\S+$/i.test(url.trim()) && events.length > 0}
      onSubmit={() => create.mutate()}
      create={create}
      errorId="webhook-create-error"
      instead={created && <SecretStep created={created} onDone={() => onOpenChange(false)} />}
      onInteractOutside={e => created && e.preventDefault()}
    >
      <FormField id="webhook-url" label="Receiver URL">
        <Input id="webhook-url" type="url" value={url} onChange={e => setUrl(e.target.value)} placeholder="https://example.com/hooks/agent-datastore" autoComplete="off" />
      </FormField>
      <fieldset className="grid gap-1.5">
        <legend className="mb-1 text-sm font-medium">Events</legend>
        {WEBHOOK_EVENTS.map(event => (
          <label key={event} className="flex items-start gap-2 text-sm">
            <input type="checkbox" className="mt-1 accent-primary" checked={events.includes(event)} onChange={() => toggle(event)} />
            <span>
              <code className="font-mono text-xs">{event}</code>
              <span className="block text-xs text-muted-foreground">{describeEvent(event)}</span>
            </span>
          </label>
        ))}
      </fieldset>
    </CreateDialog>
  )
}
