'use client'

import * as React from 'react'
import Link from 'next/link'
import { useRouter } from 'next/navigation'
import { useQuery } from '@tanstack/react-query'
import { ArrowLeft, Inbox, MessagesSquare } from 'lucide-react'
import { formatDateTime } from '@/components/format'
import { EmptyState } from '@/components/layout/empty-state'
import { LoadError, loadFailed, useErrorToast } from '@/components/layout/query-states'
import { Timestamp } from '@/components/layout/timestamp'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import type { ConversationChannel, ConversationSummary } from '@/lib/domain/agents'
import { cn } from '@/lib/utils'
import { fetchConversation, fetchConversations } from './chat-api'
import { MessageBubble } from './chat-messages'

/** A preview without Markdown's marks (**, _, `, #, >). */
const plain = (text: string) => text.replace(/[*_`#>]+/g, '').replace(/\s+/g, ' ').trim()

const CHANNEL_LABELS: Record<ConversationChannel, string> = { api: 'API', dashboard: 'Playground', website: 'Website' }

function ConversationDetailPanel({ id }: { id: string }) {
  const query = useQuery({
    queryKey: ['conversations', id],
    queryFn: () => fetchConversation(id),
  })
  useErrorToast(query.error, `conversation-error-${id}`, 'the conversation')
  if (loadFailed(query)) return <LoadError query={query} />
  if (!query.data) {
    return (
      <div className="grid gap-4 p-4">
        <Skeleton className="ml-auto h-10 w-1/2 rounded-2xl" />
        <Skeleton className="h-24 w-3/4 rounded-2xl" />
      </div>
    )
  }
  const c = query.data
  return (
    <div className="flex min-h-0 flex-col" data-testid="conversation-detail">
      <div className="flex flex-wrap items-center gap-2 border-b px-4 py-3 text-xs text-muted-foreground">
        <Badge variant="outline">{CHANNEL_LABELS[c.channel] ?? c.channel}</Badge>
        <span>Started {formatDateTime(c.createdAt)}</span>
        <span>·</span>
        <span>
          {c.messageCount} message{c.messageCount === 1 ? '' : 's'}
        </span>
        {c.visitorId && (
          <span className="truncate">
            · visitor <code className="font-mono">{c.visitorId}</code>
          </span>
        )}
      </div>
      <ol className="grid gap-4 p-4" aria-label="Messages">
        {c.messages.map(m => (
          <MessageBubble
            key={m.id}
            message={{ id: m.id, role: m.role, text: m.text, sources: m.sources, status: m.error ? 'error' : 'done', error: m.error }}
          />
        ))}
      </ol>
    </div>
  )
}

function NoConversations({ agentId }: { agentId: string }) {
  return (
    <EmptyState
      icon={Inbox}
      title="No conversations yet"
      action={
        <Button asChild variant="outline">
          <Link href={`/playground?agent=${agentId}`}>
            <MessagesSquare aria-hidden />
            Ask in the playground
          </Link>
        </Button>
      }
    >
      Conversations appear here once someone asks this agent a question, from the playground, the API or its chat page.
    </EmptyState>
  )
}

function ConversationItem({ conversation: c, selected, onSelect }: { conversation: ConversationSummary; selected: boolean; onSelect: () => void }) {
  return (
    <button
      type="button"
      data-testid="conversation-item"
      onClick={onSelect}
      aria-current={selected ? 'true' : undefined}
      className={cn(
        'grid w-full gap-1 px-4 py-3 text-left outline-none transition-colors hover:bg-muted/50 focus-visible:bg-muted',
        selected && 'bg-muted',
      )}
    >
      <span className="flex items-center justify-between gap-2">
        <span className="truncate text-sm font-medium">{c.title || (c.lastMessage ? plain(c.lastMessage.preview) : '') || 'Untitled conversation'}</span>
        <Badge variant="outline" className="shrink-0">
          {CHANNEL_LABELS[c.channel] ?? c.channel}
        </Badge>
      </span>
      {c.lastMessage && c.title && <span className="line-clamp-1 text-xs text-muted-foreground">{plain(c.lastMessage.preview)}</span>}
      <span className="text-xs text-muted-foreground">
        {c.messageCount} message{c.messageCount === 1 ? '' : 's'} · <Timestamp iso={c.updatedAt} relative />
      </span>
    </button>
  )
}

/** An agent's conversations, most recent first, and the messages (with sources) of the one selected. */
export function ConversationsView({ agentId, selectedId }: { agentId: string; selectedId?: string }) {
  const router = useRouter()
  const [selected, setSelected] = React.useState(selectedId)
  const list = useQuery({
    queryKey: ['agents', agentId, 'conversations'],
    queryFn: () => fetchConversations(agentId),
  })
  useErrorToast(list.error, `conversations-error-${agentId}`, 'the conversations')

  function select(id: string | undefined) {
    setSelected(id)
    router.replace(id ? `/agents/${agentId}/conversations?c=${encodeURIComponent(id)}` : `/agents/${agentId}/conversations`, { scroll: false })
  }

  if (loadFailed(list)) return <LoadError query={list} />
  if (list.data && list.data.length === 0) {
    return <NoConversations agentId={agentId} />
  }

  return (
    <div className="grid gap-4 lg:grid-cols-[20rem_minmax(0,1fr)]">
      <nav aria-label="Conversations" className={cn('h-fit overflow-hidden rounded-xl border', selected && 'hidden lg:block')}>
        {list.isPending ? (
          <div className="grid gap-3 p-4">
            {[0, 1, 2].map(i => (
              <Skeleton key={i} className="h-12 w-full" />
            ))}
          </div>
        ) : (
          <ul className="max-h-[70dvh] divide-y overflow-y-auto">
            {list.data?.map(c => (
              <li key={c.id}>
                <ConversationItem conversation={c} selected={selected === c.id} onSelect={() => select(c.id)} />
              </li>
            ))}
          </ul>
        )}
      </nav>
      <section aria-label="Conversation" className={cn('min-h-[20rem] rounded-xl border', !selected && 'hidden lg:block')}>
        {selected ? (
          <>
            <div className="border-b px-2 py-1.5 lg:hidden">
              <Button variant="ghost" size="sm" onClick={() => select(undefined)}>
                <ArrowLeft aria-hidden />
                All conversations
              </Button>
            </div>
            <ConversationDetailPanel key={selected} id={selected} />
          </>
        ) : (
          <div className="flex h-full min-h-[20rem] flex-col items-center justify-center gap-2 p-6 text-center text-sm text-muted-foreground">
            <MessagesSquare className="size-6" aria-hidden />
            Choose a conversation to read its messages and their sources.
          </div>
        )}
      </section>
    </div>
  )
}
