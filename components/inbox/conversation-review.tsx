'use client'

import { useQuery } from '@tanstack/react-query'
import { SearchX, ThumbsDown, ThumbsUp } from 'lucide-react'
import { MessageBubble } from '@/components/chat/chat-messages'
import { formatDateTime } from '@/components/format'
import { LoadError, loadFailed, useErrorToast } from '@/components/layout/query-states'
import { Badge } from '@/components/ui/badge'
import { Skeleton } from '@/components/ui/skeleton'
import { fetchReview, INBOX_POLL_MS, type ReviewedConversation, type ReviewedMessage } from './inbox-api'
import { CHANNEL_LABELS } from './inbox-filters'
import { OperatorPanel, STATUS_LABELS } from './operator-panel'
import { ReplyBox } from './reply-box'
import { ToolApprovals } from './tool-approvals'
import { Can } from '@/components/layout/member-role'

/** Under an answer: what retrieval searched for and found, and the votes and comments the answer received. */
function RetrievalAndVotes({ message, question }: { message: ReviewedMessage; question?: string }) {
  const { votes } = message
  return (
    <div className="ml-9 grid gap-1 text-xs text-muted-foreground" data-testid="answer-review">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        {message.searchQuery && message.searchQuery !== question && (
          <span>
            Searched for: <q className="text-foreground">{message.searchQuery}</q>
          </span>
        )}
        {message.noSources ? (
          <Badge variant="outline" className="gap-1 border-amber-600/40 text-amber-800 dark:text-amber-300">
            <SearchX className="size-3" aria-hidden />
            No sources
          </Badge>
        ) : (
          message.topScore !== null && <span>Best match {message.topScore.toFixed(2)}</span>
        )}
        {(votes.good > 0 || votes.bad > 0) && (
          <span className="inline-flex items-center gap-2" data-testid="answer-votes">
            <span className="inline-flex items-center gap-1">
              <ThumbsUp className="size-3" aria-hidden />
              <span className="sr-only">Voted up:</span> {votes.good}
            </span>
            <span className="inline-flex items-center gap-1">
              <ThumbsDown className="size-3" aria-hidden />
              <span className="sr-only">Voted down:</span> {votes.bad}
            </span>
          </span>
        )}
      </div>
      {votes.comments.map((c, i) => (
        <blockquote key={i} className="border-l-2 pl-2 italic">
          {c}
        </blockquote>
      ))}
    </div>
  )
}

/** A conversation as the inbox opens it: its messages, their sources, what was searched and the votes. */
export function ConversationReview({ id }: { id: string }) {
  // polled: a visitor's new messages appear without a reload (issue 23)
  const query = useQuery({ queryKey: ['inbox', 'conversation', id], queryFn: () => fetchReview(id), refetchInterval: INBOX_POLL_MS })
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
  let lastQuestion: string | undefined
  return (
    <div className="flex min-h-0 flex-col" data-testid="conversation-detail">
      <div className="flex flex-wrap items-center gap-2 border-b px-4 py-3 text-xs text-muted-foreground">
        <Badge variant="outline">{CHANNEL_LABELS[c.channel] ?? c.channel}</Badge>
        <span className="font-medium text-foreground">{c.agentName}</span>
        <span>Started {formatDateTime(c.createdAt)}</span>
        <span>
          · {c.messageCount} message{c.messageCount === 1 ? '' : 's'}
        </span>
        {c.visitorId && (
          <span className="min-w-0 break-all">
            · visitor <code className="font-mono">{c.visitorId}</code>
          </span>
        )}
        {c.leads.map(email => (
          <span key={email} className="break-all" data-testid="conversation-lead">
            · <a href={`mailto:${email}`} className="underline">{email}</a>
          </span>
        ))}
      </div>
      <Can scope="conversations:write">
        <OperatorPanel c={c} />
        <ToolApprovals conversationId={c.id} />
      </Can>
      <ol className="grid gap-4 p-4" aria-label="Messages">
        {c.messages.map(m => {
          if (m.role === 'user') lastQuestion = m.text
          return (
            <li key={m.id} className="grid gap-1">
              <ol className="contents">
                <MessageBubble
                  message={{ id: m.id, role: m.role, text: m.text, sources: m.sources, status: m.error ? 'error' : 'done', error: m.error, messageId: m.id, toolCalls: m.toolCalls, operatorName: m.operatorName }}
                  actions={m.role === 'assistant' ? { votes: false } : undefined}
                />
              </ol>
              {m.role === 'assistant' && !m.operatorName && <RetrievalAndVotes message={m} question={lastQuestion} />}
            </li>
          )
        })}
      </ol>
      <SupportEvents c={c} />
      <Can scope="conversations:write">
        <ReplyBox conversationId={c.id} aiAnswers={c.isAiEnabled} />
      </Can>
    </div>
  )
}

const EVENT_LABELS: Record<ReviewedConversation['events'][number]['type'], (to: string | null) => string> = {
  status: to => `Status: ${STATUS_LABELS[to as keyof typeof STATUS_LABELS] ?? to}`,
  ai: to => (to === 'false' ? 'Taken over by a person' : 'Handed back to the AI'),
  assignee: to => (to ? 'Assigned' : 'Unassigned'),
  priority: to => `Priority: ${to?.toLowerCase()}`,
  lead: to => `Left an email: ${to}`,
}

/** The conversation's changes of state: what, who, when. */
function SupportEvents({ c }: { c: ReviewedConversation }) {
  if (c.events.length === 0) return null
  return (
    <ol className="grid gap-0.5 border-t px-4 py-2 text-xs text-muted-foreground" aria-label="History" data-testid="support-events">
      {c.events.map(e => (
        <li key={e.id}>
          {EVENT_LABELS[e.type](e.to)} · {e.actor.name ?? e.actor.type} · {formatDateTime(e.createdAt)}
        </li>
      ))}
    </ol>
  )
}
