'use client'

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Bot, CheckCircle2, Hand, RotateCcw } from 'lucide-react'
import { toast } from 'sonner'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { FilterSelect } from './filter-select'
import { fetchMembers, updateConversation, type ConversationUpdate, type ReviewedConversation } from './inbox-api'

export const STATUS_LABELS = { UNRESOLVED: 'Open', HUMAN_REQUESTED: 'Needs a human', RESOLVED: 'Resolved' } as const
const PRIORITIES = [
  { value: 'LOW', label: 'Low' },
  { value: 'MEDIUM', label: 'Medium' },
  { value: 'HIGH', label: 'High' },
] as const

/** What an operator does with a conversation (issue 23): take over, hand back, resolve, reopen, assign, prioritise. */
export function OperatorPanel({ c }: { c: ReviewedConversation }) {
  const queryClient = useQueryClient()
  const members = useQuery({ queryKey: ['members'], queryFn: fetchMembers, staleTime: 60_000 })
  const change = useMutation({
    mutationFn: (body: ConversationUpdate) => updateConversation(c.id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['inbox'] }),
    onError: error => toast.error(`Could not change the conversation: ${error.message}`),
  })
  const busy = change.isPending
  return (
    <div className="flex flex-wrap items-end gap-2 border-b px-4 py-3" data-testid="operator-panel">
      <div className="flex flex-wrap items-center gap-2 self-center">
        <Badge variant="outline" data-testid="conversation-status">
          {STATUS_LABELS[c.status]}
        </Badge>
        <Badge variant={c.isAiEnabled ? 'outline' : 'secondary'} data-testid="conversation-answerer">
          {c.isAiEnabled ? 'The AI answers' : 'A person answers'}
        </Badge>
      </div>
      <div className="ml-auto flex flex-wrap items-end gap-2">
        {c.isAiEnabled ? (
          <Button size="sm" onClick={() => change.mutate({ isAiEnabled: false })} disabled={busy}>
            <Hand aria-hidden /> Take over
          </Button>
        ) : (
          <Button size="sm" variant="outline" onClick={() => change.mutate({ isAiEnabled: true })} disabled={busy}>
            <Bot aria-hidden /> Hand back to the AI
          </Button>
        )}
        {c.status === 'RESOLVED' ? (
          <Button size="sm" variant="outline" onClick={() => change.mutate({ status: 'UNRESOLVED' })} disabled={busy}>
            <RotateCcw aria-hidden /> Reopen
          </Button>
        ) : (
          <Button size="sm" variant="outline" onClick={() => change.mutate({ status: 'RESOLVED' })} disabled={busy}>
            <CheckCircle2 aria-hidden /> Resolve
          </Button>
        )}
        <FilterSelect
          id={`assignee-${c.id}`}
          label="Assignee"
          value={c.assigneeId ?? ''}
          options={[{ value: '', label: 'Nobody' }, ...(members.data ?? []).map(m => ({ value: m.id, label: m.name || m.email }))]}
          onChange={v => change.mutate({ assigneeId: v || null })}
          className="w-40"
        />
        <FilterSelect id={`priority-${c.id}`} label="Priority" value={c.priority} options={[...PRIORITIES]} onChange={v => v && change.mutate({ priority: v })} className="w-28" />
      </div>
    </div>
  )
}
