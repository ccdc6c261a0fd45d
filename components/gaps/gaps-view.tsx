'use client'

import * as React from 'react'
import Link from 'next/link'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { CircleCheck, MessageSquarePlus, SearchX, ThumbsDown, X } from 'lucide-react'
import { toast } from 'sonner'
import { errorMessage } from '@/components/api-client'
import { EmptyState } from '@/components/layout/empty-state'
import { LoadError, loadFailed, useErrorToast } from '@/components/layout/query-states'
import { Timestamp } from '@/components/layout/timestamp'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { AddAnswerForm } from './add-answer-form'
import { dismissGaps, gapsQueryKey, listGaps, type GapGroup } from './gaps-api'

function Reasons({ group }: { group: GapGroup }) {
  const { noSources, weak, votedDown } = group.reasons
  return (
    <span className="flex flex-wrap gap-1.5">
      {noSources > 0 && (
        <Badge variant="outline" className="gap-1">
          <SearchX className="size-3" aria-hidden />
          No sources ×{noSources}
        </Badge>
      )}
      {weak > 0 && <Badge variant="outline">Weak matches ×{weak}</Badge>}
      {votedDown > 0 && (
        <Badge variant="outline" className="gap-1">
          <ThumbsDown className="size-3" aria-hidden />
          Voted down ×{votedDown}
        </Badge>
      )}
    </span>
  )
}

function GapCard({ group }: { group: GapGroup }) {
  const client = useQueryClient()
  const [answering, setAnswering] = React.useState(false)
  const dismiss = useMutation({
    mutationFn: () => dismissGaps(group.messageIds),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['gaps'] }),
    onError: error => toast.error('Could not dismiss', { description: errorMessage(error) }),
  })
  const latest = group.items[0]
  return (
    <li className="grid min-w-0 gap-3 rounded-xl border p-4" data-testid="gap-group">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="grid min-w-0 gap-1">
          <h2 className="text-sm font-semibold break-words">{group.question || '(no question text)'}</h2>
          <p className="text-xs text-muted-foreground">
            Asked {group.count} time{group.count === 1 ? '' : 's'} · last <Timestamp iso={latest.createdAt} relative /> · {latest.agentName}
          </p>
        </div>
        <Reasons group={group} />
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer text-xs text-muted-foreground">The answers given</summary>
        <ul className="mt-2 grid gap-2">
          {group.items.map(i => (
            <li key={i.messageId} className="grid gap-1 border-l-2 pl-3">
              <span className="text-xs text-muted-foreground">
                “{i.question}”{i.searchQuery && i.searchQuery !== i.question ? ` (searched: ${i.searchQuery})` : ''} ·{' '}
                <Link className="underline underline-offset-4" href={`/conversations?c=${encodeURIComponent(i.conversationId)}`}>
                  open the conversation
                </Link>
              </span>
              <span className="line-clamp-3 break-words whitespace-pre-wrap">{i.answer}</span>
              {i.comments.map((c, n) => (
                <q key={n} className="text-xs italic text-muted-foreground">{c}</q>
              ))}
            </li>
          ))}
        </ul>
      </details>
      {answering ? (
        <AddAnswerForm group={group} onDone={() => setAnswering(false)} />
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button size="sm" onClick={() => setAnswering(true)} data-testid="gap-add-answer">
            <MessageSquarePlus aria-hidden />
            Add an answer
          </Button>
          <Button size="sm" variant="outline" onClick={() => dismiss.mutate()} disabled={dismiss.isPending} data-testid="gap-dismiss">
            <X aria-hidden />
            Dismiss
          </Button>
        </div>
      )}
    </li>
  )
}

/** The knowledge-gap queue: questions the agents could not answer well, grouped, with "add an answer" and "dismiss". */
export function GapsView() {
  const gaps = useQuery({ queryKey: gapsQueryKey(), queryFn: () => listGaps() })
  useErrorToast(gaps.error, 'gaps-error', 'the knowledge gaps')
  if (loadFailed(gaps)) return <LoadError query={gaps} />
  if (!gaps.data) return <Skeleton className="h-32 w-full rounded-xl" />
  if (gaps.data.length === 0) {
    return (
      <EmptyState icon={CircleCheck} title="No gaps to fill">
        Questions whose answer found no source or only weak matches, and answers voted down, appear here.
      </EmptyState>
    )
  }
  return (
    <ul className="grid gap-3" aria-label="Knowledge gaps">
      {gaps.data.map(g => (
        <GapCard key={g.messageIds[0]} group={g} />
      ))}
    </ul>
  )
}
