'use client'

import * as React from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ChevronDown, ChevronRight, Trash2, Webhook as WebhookIcon } from 'lucide-react'
import { toast } from 'sonner'
import { errorMessage } from '@/components/api-client'
import { ConfirmedRemoval } from '@/components/layout/confirm-action-button'
import { EmptyState } from '@/components/layout/empty-state'
import { PageHeader } from '@/components/layout/page-header'
import { useErrorToast } from '@/components/layout/query-states'
import { QueryTable } from '@/components/layout/query-table'
import { Button } from '@/components/ui/button'
import { Switch } from '@/components/ui/switch'
import { TableCell, TableRow } from '@/components/ui/table'
import { CreateWebhookDialog } from './create-webhook-dialog'
import { WebhookDeliveries } from './webhook-deliveries'
import { deleteWebhook, listWebhooks, updateWebhook } from './webhooks-api'
import { webhooksQueryKey, type Webhook } from './types'

function DeleteWebhookButton({ webhook }: { webhook: Webhook }) {
  return (
    <ConfirmedRemoval
      remove={() => deleteWebhook(webhook.id)}
      done="Webhook deleted"
      failed="Could not delete the webhook"
      refresh={webhooksQueryKey}
      trigger={
        <Button variant="ghost" size="sm" aria-label={`Delete the webhook to ${webhook.url}`} className="text-destructive hover:text-destructive">
          <Trash2 aria-hidden />
        </Button>
      }
      title="Delete this webhook?"
      description={`${webhook.url} stops receiving events, and its deliveries not sent yet are dropped.`}
      confirmLabel="Delete"
    />
  )
}

function WebhookRow({ webhook }: { webhook: Webhook }) {
  const [expanded, setExpanded] = React.useState(false)
  const queryClient = useQueryClient()
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => updateWebhook(webhook.id, { enabled }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksQueryKey }),
    onError: error => toast.error('Could not change the webhook', { description: errorMessage(error) }),
  })
  return (
    <>
      <TableRow data-testid="webhook-row">
        <TableCell className="max-w-[22rem] pl-4 whitespace-normal">
          <button type="button" className="flex items-start gap-1 text-left" onClick={() => setExpanded(e => !e)} aria-expanded={expanded}>
            {expanded ? <ChevronDown className="mt-0.5 size-4 shrink-0" aria-hidden /> : <ChevronRight className="mt-0.5 size-4 shrink-0" aria-hidden />}
            <span className="font-medium break-all">{webhook.url}</span>
          </button>
        </TableCell>
        <TableCell className="hidden whitespace-normal md:table-cell">
          <div className="flex flex-wrap gap-1">
            {webhook.events.map(e => (
              <code key={e} className="rounded bg-muted px-1 py-0.5 font-mono text-xs">
                {e}
              </code>
            ))}
          </div>
        </TableCell>
        <TableCell className="hidden sm:table-cell">
          <code className="font-mono text-xs">{webhook.secretPrefix}…</code>
        </TableCell>
        <TableCell>
          <Switch checked={webhook.enabled} disabled={toggle.isPending} onCheckedChange={v => toggle.mutate(v)} aria-label={`Send events to ${webhook.url}`} />
        </TableCell>
        <TableCell className="pr-2 text-right sm:pr-4">
          <DeleteWebhookButton webhook={webhook} />
        </TableCell>
      </TableRow>
      {expanded && (
        <TableRow className="hover:bg-transparent">
          <TableCell colSpan={5} className="py-3 pl-10 whitespace-normal">
            <WebhookDeliveries webhookId={webhook.id} />
          </TableCell>
        </TableRow>
      )}
    </>
  )
}

export function WebhooksView() {
  const query = useQuery({ queryKey: webhooksQueryKey, queryFn: listWebhooks })
  useErrorToast(query.error, 'webhooks-error', 'webhooks')
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Tell your own systems when content is synced or fails, a site refreshes, or a conversation happens. Each delivery is signed and retried until it gets through."
        action={<CreateWebhookDialog />}
      />
      <QueryTable
        label="Webhooks"
        query={query}
        isEmpty={query.data?.length === 0}
        empty={
          <EmptyState icon={WebhookIcon} title="No webhooks yet">
            Add one with the <span className="font-medium text-foreground">Add webhook</span> button: give the address of your receiver
            and the events it wants.
          </EmptyState>
        }
        columns={[
          { label: 'Receiver', className: 'pl-4' },
          { label: 'Events', className: 'hidden md:table-cell' },
          { label: 'Secret', className: 'hidden sm:table-cell' },
          { label: 'Enabled' },
          { label: 'Actions', className: 'pr-2 text-right sm:pr-4', srOnly: true },
        ]}
      >
        {query.data?.map(w => <WebhookRow key={w.id} webhook={w} />)}
      </QueryTable>
    </>
  )
}
