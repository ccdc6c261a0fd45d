'use client'

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Check, ShieldQuestion, X } from 'lucide-react'
import { toast } from 'sonner'
import { formatDateTime } from '@/components/format'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { decideApproval, fetchApprovals, INBOX_POLL_MS } from './inbox-api'

// The conversation's tool calls that wait for an operator (issue 25, `requiresApproval`): what the model asked to
// run, with its arguments, and Approve / Deny. The decision continues the agent's answer in the conversation.

const STATUS = { pending: 'Waiting for approval', approved: 'Approved', denied: 'Denied' } as const

export function ToolApprovals({ conversationId }: { conversationId: string }) {
  const queryClient = useQueryClient()
  const approvals = useQuery({ queryKey: ['inbox', 'approvals', conversationId], queryFn: () => fetchApprovals(conversationId), refetchInterval: INBOX_POLL_MS })
  const decide = useMutation({
    mutationFn: ({ approvalId, decision }: { approvalId: string; decision: 'approve' | 'deny' }) => decideApproval(conversationId, approvalId, decision),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['inbox'] }),
    onError: error => toast.error(`Could not decide: ${error.message}`),
  })
  const items = approvals.data?.items ?? []
  if (items.length === 0) return null
  return (
    <ol className="grid gap-2 border-b px-4 py-3" aria-label="Tool calls to approve" data-testid="tool-approvals">
      {items.map(a => (
        <li key={a.id} className="grid gap-1 rounded-lg border p-3 text-sm" data-testid="tool-approval" data-status={a.status}>
          <div className="flex flex-wrap items-center gap-2">
            <ShieldQuestion className="size-4 text-muted-foreground" aria-hidden />
            <span className="font-medium">{a.tool}</span>
            <Badge variant={a.status === 'pending' ? 'secondary' : 'outline'}>{STATUS[a.status]}</Badge>
            <span className="text-xs text-muted-foreground">{formatDateTime(a.createdAt)}</span>
          </div>
          <pre className="overflow-x-auto rounded bg-muted px-2 py-1 font-mono text-xs">{JSON.stringify(a.arguments, null, 2)}</pre>
          {a.status === 'pending' ? (
            <div className="flex gap-2">
              <Button size="sm" onClick={() => decide.mutate({ approvalId: a.id, decision: 'approve' })} disabled={decide.isPending}>
                <Check aria-hidden /> Approve
              </Button>
              <Button size="sm" variant="outline" onClick={() => decide.mutate({ approvalId: a.id, decision: 'deny' })} disabled={decide.isPending}>
                <X aria-hidden /> Deny
              </Button>
            </div>
          ) : (
            <p className="text-xs text-muted-foreground">
              {STATUS[a.status]} by {a.decidedByName ?? 'an operator'}
              {a.decidedAt && ` · ${formatDateTime(a.decidedAt)}`}
            </p>
          )}
        </li>
      ))}
    </ol>
  )
}
