'use client'

import * as React from 'react'
import { useQuery } from '@tanstack/react-query'
import { History } from 'lucide-react'
import { apiFetch, errorMessage } from '@/components/api-client'
import { countOf, formatRelative } from '@/components/format'
import type { ConversationSummary } from '@/lib/domain/agents'
import { cn } from '@/lib/utils'

// The playground's past conversations with an agent (issue 22: a thread was only a raw id, and a past one could not
// be reopened): the latest ones started in the dashboard, named by their first question, reopened with a click.

export const playgroundConversationsKey = (agentId: string) => ['agents', agentId, 'playground-conversations'] as const

function listPlaygroundConversations(agentId: string, signal?: AbortSignal): Promise<ConversationSummary[]> {
  return apiFetch<ConversationSummary[]>(`/api/agents/${encodeURIComponent(agentId)}/conversations?limit=50`, { signal }).then(list =>
    list.filter(c => c.channel === 'dashboard').slice(0, 15),
  )
}

/** A conversation's name for people: its first question, else a placeholder (never its id). */
export function conversationLabel(title: string | null | undefined): string {
  const text = title?.replace(/\s+/g, ' ').trim()
  return text ? (text.length > 60 ? `${text.slice(0, 59)}…` : text) : 'Untitled conversation'
}

export function PastConversations({ agentId, currentId, onOpen }: { agentId: string; currentId?: string; onOpen: (id: string) => void }) {
  const query = useQuery({ queryKey: playgroundConversationsKey(agentId), queryFn: ({ signal }) => listPlaygroundConversations(agentId, signal) })
  return (
    <section aria-labelledby="past-conversations-heading" className="grid gap-2">
      <h2 id="past-conversations-heading" className="flex items-center gap-1.5 text-sm font-semibold">
        <History className="size-4" aria-hidden />
        Past conversations
      </h2>
      {query.isError ? (
        <p className="text-xs text-destructive">{errorMessage(query.error)}</p>
      ) : !query.data ? (
        <p className="text-xs text-muted-foreground">Loading…</p>
      ) : query.data.length === 0 ? (
        <p className="text-xs text-muted-foreground">None yet: your questions here start one.</p>
      ) : (
        <ul className="grid gap-1" data-testid="past-conversations">
          {query.data.map(c => (
            <li key={c.id}>
              <button
                type="button"
                onClick={() => onOpen(c.id)}
                aria-current={c.id === currentId || undefined}
                className={cn(
                  'grid min-h-9 w-full gap-0.5 rounded-md px-2 py-1.5 text-left text-sm hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none',
                  // marked by a ring, not a fill: the muted second line keeps its contrast on the page's background
                  c.id === currentId && 'font-medium ring-1 ring-border',
                )}
              >
                <span className="truncate">{conversationLabel(c.title)}</span>
                <span className="text-xs text-muted-foreground">
                  {formatRelative(c.updatedAt)} · {countOf(c.messageCount, 'message')}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
