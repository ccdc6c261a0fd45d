'use client'

import * as React from 'react'
import { useRouter } from 'next/navigation'
import { useInfiniteQuery } from '@tanstack/react-query'
import { ArrowLeft, MessagesSquare, SearchX, ThumbsDown, ThumbsUp } from 'lucide-react'
import { LoadError, loadFailed, useErrorToast } from '@/components/layout/query-states'
import { Timestamp } from '@/components/layout/timestamp'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { cn } from '@/lib/utils'
import { ConversationReview } from './conversation-review'
import { fetchInboxPage, INBOX_POLL_MS, inboxQueryKey, type InboxConversation, type InboxFilterValues } from './inbox-api'
import { CHANNEL_LABELS, InboxFilters } from './inbox-filters'
import { StatusTabs, type StatusTab } from './status-tabs'

/** A preview without Markdown's marks (**, _, `, #, >). */
const plain = (text: string) => text.replace(/[*_`#>]+/g, '').replace(/\s+/g, ' ').trim()

function ConversationItem({ c, selected, onSelect, showAgent }: { c: InboxConversation; selected: boolean; onSelect: () => void; showAgent: boolean }) {
  const title = c.title || (c.lastMessage ? plain(c.lastMessage.preview) : '') || 'Untitled conversation'
  return (
    <button
      type="button"
      data-testid="conversation-item"
      onClick={onSelect}
      aria-current={selected ? 'true' : undefined}
      className={cn('grid w-full min-w-0 gap-1.5 px-4 py-3 text-left outline-none transition-colors hover:bg-muted/50 focus-visible:bg-muted', selected && 'bg-muted [&_.text-muted-foreground]:text-neutral-600 dark:[&_.text-muted-foreground]:text-neutral-300')}
    >
      <span className="line-clamp-2 text-sm font-medium break-words">{title}</span>
      {c.lastMessage && c.title && <span className="line-clamp-1 text-xs break-all text-muted-foreground">{plain(c.lastMessage.preview)}</span>}
      <span className="flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
        <Badge variant="outline" data-testid="channel-badge">
          {CHANNEL_LABELS[c.channel] ?? c.channel}
        </Badge>
        {c.status === 'HUMAN_REQUESTED' && <Badge className="bg-amber-500/20 text-amber-900 dark:text-amber-200">Needs a human</Badge>}
        {!c.isAiEnabled && <Badge variant="secondary">Person answering</Badge>}
        {c.priority === 'HIGH' && <Badge variant="destructive">High</Badge>}
        {showAgent && <span className="max-w-40 truncate">{c.agentName}</span>}
        {c.votes.good > 0 && (
          <span className="inline-flex items-center gap-0.5" title="Voted up">
            <ThumbsUp className="size-3" aria-label="Voted up" /> {c.votes.good}
          </span>
        )}
        {c.votes.bad > 0 && (
          <span className="inline-flex items-center gap-0.5" title="Voted down">
            <ThumbsDown className="size-3" aria-label="Voted down" /> {c.votes.bad}
          </span>
        )}
        {c.weakSources && (
          <span className="inline-flex items-center gap-0.5" title={c.noSources ? 'An answer found no source' : 'An answer found only weak matches'}>
            <SearchX className="size-3" aria-label={c.noSources ? 'No sources' : 'Weak sources'} />
          </span>
        )}
        <span>
          {c.messageCount} msg · <Timestamp iso={c.updatedAt} relative />
        </span>
      </span>
    </button>
  )
}

function ConversationList({ filters, selected, onSelect, showAgent }: { filters: InboxFilterValues; selected?: string; onSelect: (id: string) => void; showAgent: boolean }) {
  const list = useInfiniteQuery({
    queryKey: inboxQueryKey(filters),
    queryFn: ({ pageParam }) => fetchInboxPage(filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: last => last.nextCursor ?? undefined,
    // new conversations and messages appear without a reload (issue 23)
    refetchInterval: INBOX_POLL_MS,
  })
  useErrorToast(list.error, 'inbox-error', 'the conversations')
  if (loadFailed(list)) return <LoadError query={list} />
  if (list.isPending) {
    return (
      <div className="grid gap-3 p-4">
        {[0, 1, 2].map(i => (
          <Skeleton key={i} className="h-12 w-full" />
        ))}
      </div>
    )
  }
  const items = list.data?.pages.flatMap(p => p.items) ?? []
  if (items.length === 0) return <p className="p-6 text-center text-sm text-muted-foreground">No conversation matches these filters.</p>
  return (
    <>
      <ul className="divide-y" data-testid="conversation-list">
        {items.map(c => (
          <li key={c.id}>
            <ConversationItem c={c} selected={selected === c.id} onSelect={() => onSelect(c.id)} showAgent={showAgent} />
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap items-center justify-between gap-2 border-t px-4 py-3 text-xs text-muted-foreground">
        <span data-testid="inbox-count">
          {items.length} shown{list.hasNextPage ? '' : ' (all)'}
        </span>
        {list.hasNextPage && (
          <Button variant="outline" size="sm" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage} data-testid="inbox-more">
            {list.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </Button>
        )}
      </div>
    </>
  )
}

/**
 * The conversation inbox: the organization's conversations (or one agent's), filtered, a page at a time, and the
 * messages of the one selected with their sources, searched query and votes.
 */
export function InboxView({ agentId, selectedId, basePath }: { agentId?: string; selectedId?: string; basePath: string }) {
  const router = useRouter()
  const [selected, setSelected] = React.useState(selectedId)
  const [filters, setFilters] = React.useState<InboxFilterValues>({})
  const [tab, setTab] = React.useState<StatusTab>('all')
  const base = agentId ? { ...filters, agentId } : filters
  const scoped = tab === 'all' ? base : { ...base, status: tab }

  function select(id: string | undefined) {
    setSelected(id)
    router.replace(id ? `${basePath}?c=${encodeURIComponent(id)}` : basePath, { scroll: false })
  }

  return (
    <div className="grid min-w-0 gap-4">
      <InboxFilters value={filters} onChange={setFilters} fixedAgentId={agentId} />
      <StatusTabs value={tab} onChange={setTab} filters={base} />
      <div className="grid min-w-0 gap-4 lg:grid-cols-[22rem_minmax(0,1fr)]">
        <nav aria-label="Conversations" className={cn('h-fit min-w-0 rounded-xl border', selected && 'hidden lg:block')}>
          <ConversationList filters={scoped} selected={selected} onSelect={select} showAgent={!agentId} />
        </nav>
        <section aria-label="Conversation" className={cn('min-h-[20rem] min-w-0 rounded-xl border', !selected && 'hidden lg:block')}>
          {selected ? (
            <>
              <div className="border-b px-2 py-1.5 lg:hidden">
                <Button variant="ghost" size="sm" onClick={() => select(undefined)}>
                  <ArrowLeft aria-hidden />
                  All conversations
                </Button>
              </div>
              <ConversationReview key={selected} id={selected} />
            </>
          ) : (
            <div className="flex h-full min-h-[20rem] flex-col items-center justify-center gap-2 p-6 text-center text-sm text-muted-foreground">
              <MessagesSquare className="size-6" aria-hidden />
              Choose a conversation to read its messages, their sources and votes.
            </div>
          )}
        </section>
      </div>
    </div>
  )
}
