'use client'

// The latest deliveries of one webhook: event, status, response code, attempts, and "send again".
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { RotateCw } from 'lucide-react'
import { toast } from 'sonner'
import { errorMessage } from '@/components/api-client'
import { Timestamp } from '@/components/layout/timestamp'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { listDeliveries, resendDelivery } from './webhooks-api'
import { deliveriesQueryKey, type Delivery } from './types'

const VARIANT: Record<Delivery['status'], 'default' | 'secondary' | 'destructive' | 'outline'> = {
  delivered: 'default',
  pending: 'secondary',
  running: 'secondary',
  failed: 'destructive',
}

function ResendButton({ delivery }: { delivery: Delivery }) {
  const queryClient = useQueryClient()
  const resend = useMutation({
    mutationFn: () => resendDelivery(delivery.id),
    onSuccess: () => {
      toast.success('Queued to be sent again')
      void queryClient.invalidateQueries({ queryKey: deliveriesQueryKey(delivery.webhookId) })
    },
    onError: error => toast.error('Could not send again', { description: errorMessage(error) }),
  })
  return (
    <Button variant="ghost" size="sm" disabled={resend.isPending} onClick={() => resend.mutate()} aria-label={`Send ${delivery.event} again`}>
      <RotateCw aria-hidden />
      Send again
    </Button>
  )
}

export function WebhookDeliveries({ webhookId }: { webhookId: string }) {
  const query = useQuery({
    queryKey: deliveriesQueryKey(webhookId),
    queryFn: () => listDeliveries(webhookId),
    // new deliveries appear while the list is open; faster while one waits to be sent
    refetchInterval: q => (q.state.data?.some(d => d.status === 'pending' || d.status === 'running') ? 2000 : 5000),
  })
  if (query.isPending) return <p className="text-sm text-muted-foreground">Loading deliveries…</p>
  if (query.isError) return <p className="text-sm text-destructive">{errorMessage(query.error)}</p>
  if (query.data.length === 0) return <p className="text-sm text-muted-foreground">No deliveries yet: they appear when a chosen event happens.</p>
  return (
    <ul className="grid gap-1.5" aria-label="Deliveries">
      {query.data.map(d => (
        <li key={d.id} className="flex flex-wrap items-center gap-2 rounded-md border px-3 py-1.5 text-sm" data-testid="webhook-delivery" data-status={d.status}>
          <code className="font-mono text-xs">{d.event}</code>
          <Badge variant={VARIANT[d.status]}>{d.status}</Badge>
          {d.responseStatus !== null && <span className="text-xs text-muted-foreground">HTTP {d.responseStatus}</span>}
          <span className="text-xs text-muted-foreground">
            {d.attempts} attempt{d.attempts === 1 ? '' : 's'} · <Timestamp iso={d.createdAt} relative />
          </span>
          {d.lastError && <span className="w-full text-xs text-destructive">{d.lastError}</span>}
          {d.nextAttemptAt && d.attempts > 0 && (
            <span className="text-xs text-muted-foreground">
              next attempt <Timestamp iso={d.nextAttemptAt} relative />
            </span>
          )}
          <span className="ml-auto">
            <ResendButton delivery={d} />
          </span>
        </li>
      ))}
    </ul>
  )
}
