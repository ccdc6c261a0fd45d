'use client'

import * as React from 'react'
import { Bot, CircleAlert, ExternalLink, FileText, Square, User } from 'lucide-react'
import { STOPPED_MESSAGE } from '@/lib/domain/answer-events'
import { cn } from '@/lib/utils'
import type { AnswerSource } from './agent-stream'
import type { ToolCallRecord } from '@/lib/domain/agent-tools'
import { Markdown } from './markdown'
import { ToolCallsList } from './tool-calls-list'
import { MessageActions, type MessageActionsConfig } from './message-actions'

export interface DisplayMessage {
  id: string
  role: 'user' | 'assistant'
  text: string
  sources?: AnswerSource[]
  status?: 'streaming' | 'done' | 'stopped' | 'error'
  error?: string | null
  /** The server's id of the message (votes need it); absent until the answer is stored. */
  messageId?: string
  /** The agent's tool calls for this answer (issue 25), for its organization. */
  toolCalls?: ToolCallRecord[]
  /** An operator's reply (issue 23): the person who wrote it, shown above the text. */
  operatorName?: string | null
}

const isHttp = (s: string) => /^https?:\/\//i.test(s)

/** One entry per source (fragments of the same page or file together), best score first. */
function groupSources(sources: AnswerSource[]) {
  const groups = new Map<string, { source: string; name: string; score: number; fragments: AnswerSource[] }>()
  for (const s of sources) {
    const key = s.source || s.datasource_id
    const g = groups.get(key)
    if (g) {
      g.fragments.push(s)
      g.score = Math.max(g.score, s.score)
    } else groups.set(key, { source: s.source, name: s.datasource_name, score: s.score, fragments: [s] })
  }
  return [...groups.values()]
}

export function SourcesList({ sources }: { sources: AnswerSource[] }) {
  if (sources.length === 0) return null
  const groups = groupSources(sources)
  return (
    <div className="mt-3 border-t pt-2" data-testid="answer-sources">
      <p className="mb-1.5 text-xs font-medium text-muted-foreground">Sources</p>
      {/* grid-cols-1 and min-w-0: a long source URL is cut with an ellipsis instead of widening the page on a phone */}
      <ol className="grid grid-cols-1 gap-1">
        {groups.map((g, i) => (
          <li key={`${g.source}-${i}`} className="min-w-0 text-xs" data-testid="answer-source">
            <details className="group">
              <summary className="flex cursor-pointer list-none items-center gap-1.5 rounded outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 [&::-webkit-details-marker]:hidden">
                <span className="flex size-4 shrink-0 items-center justify-center rounded bg-muted text-[10px] font-semibold tabular-nums">{i + 1}</span>
                {/* no link inside <summary> (a nested interactive control, axe): the link is in the opened part */}
                {isHttp(g.source) ? (
                  <span className="inline-flex min-w-0 items-center gap-1 font-medium">
                    <ExternalLink className="size-3 shrink-0 text-muted-foreground" aria-hidden />
                    <span className="truncate">{g.name || g.source}</span>
                  </span>
                ) : (
                  <span className="inline-flex min-w-0 items-center gap-1 font-medium">
                    <FileText className="size-3 shrink-0 text-muted-foreground" aria-hidden />
                    <span className="truncate">{g.name || g.source}</span>
                  </span>
                )}
                {(isHttp(g.source) || g.fragments.some(f => f.text)) && (
                  <>
                    <span className="ml-auto shrink-0 text-muted-foreground group-open:hidden">show</span>
                    <span className="ml-auto hidden shrink-0 text-muted-foreground group-open:inline">hide</span>
                  </>
                )}
              </summary>
              <div className="mt-1.5 grid gap-1.5 pl-5.5">
                {isHttp(g.source) && (
                  <a href={g.source} target="_blank" rel="noopener noreferrer" className="min-w-0 truncate text-muted-foreground underline underline-offset-4 hover:text-foreground">
                    {g.source}
                  </a>
                )}
                {/* a visitor may see titles only (the agent's sourcesVisibility): no empty quotes */}
                {g.fragments.filter(f => f.text).map((f, j) => (
                  <blockquote key={j} className="border-l-2 pl-2 whitespace-pre-wrap text-muted-foreground">
                    {f.text.length > 500 ? `${f.text.slice(0, 500)}…` : f.text}
                  </blockquote>
                ))}
              </div>
            </details>
          </li>
        ))}
      </ol>
    </div>
  )
}

function Avatar({ role }: { role: 'user' | 'assistant' }) {
  const Icon = role === 'user' ? User : Bot
  return (
    <span
      className={cn(
        'flex size-7 shrink-0 items-center justify-center rounded-full',
        role === 'user' ? 'bg-primary text-primary-foreground' : 'border bg-background',
      )}
      aria-hidden
    >
      <Icon className="size-4" />
    </span>
  )
}

export function MessageBubble({ message, actions }: { message: DisplayMessage; actions?: MessageActionsConfig }) {
  const streaming = message.status === 'streaming'
  const stopped = message.status === 'stopped' || message.error === STOPPED_MESSAGE
  if (message.role === 'user') {
    return (
      <li className="flex justify-end gap-2" data-testid="user-message">
        <div className="max-w-[85%] rounded-2xl rounded-br-sm bg-primary px-3.5 py-2 text-sm whitespace-pre-wrap break-words text-primary-foreground">
          {message.text}
        </div>
        <Avatar role="user" />
      </li>
    )
  }
  return (
    <li className="flex gap-2" data-testid="assistant-message" data-status={message.status ?? 'done'}>
      <Avatar role="assistant" />
      <div className="min-w-0 max-w-[85%] rounded-2xl rounded-bl-sm border bg-card px-3.5 py-2">
        {message.operatorName && (
          <p className="mb-0.5 text-xs font-medium text-muted-foreground" data-testid="operator-name">
            {message.operatorName} · from the team
          </p>
        )}
        {message.text ? (
          <div data-testid="answer-text" aria-busy={streaming}>
            <Markdown>{message.text}</Markdown>
            {streaming && <span className="ml-0.5 inline-block h-4 w-1.5 animate-pulse bg-foreground/60 align-text-bottom" aria-hidden />}
          </div>
        ) : streaming ? (
          <span className="flex items-center gap-1 py-1.5" role="status" aria-label="The agent is answering">
            {[0, 150, 300].map(d => (
              <span key={d} className="size-1.5 animate-bounce rounded-full bg-muted-foreground" style={{ animationDelay: `${d}ms` }} />
            ))}
          </span>
        ) : null}
        {/* One label for one event: stopped here, or stored as stopped by the server (a disconnect) */}
        {stopped && (
          <p className="mt-1 flex items-center gap-1 text-xs text-muted-foreground" data-testid="answer-stopped">
            <Square className="size-3" aria-hidden />
            {STOPPED_MESSAGE}
          </p>
        )}
        {!stopped && (message.status === 'error' || message.error) && (
          <p role="alert" className="mt-1 flex items-start gap-1.5 text-sm text-destructive" data-testid="answer-error">
            <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
            {message.error || 'The answer failed.'}
          </p>
        )}
        {message.toolCalls && message.status !== 'streaming' && <ToolCallsList calls={message.toolCalls} />}
        {message.sources && message.sources.length > 0 && message.status !== 'streaming' && <SourcesList sources={message.sources} />}
        {actions && !streaming && <MessageActions text={message.text} answerId={message.id} messageId={message.messageId} config={actions} />}
      </div>
    </li>
  )
}

/** The messages of a conversation, kept scrolled to the newest while it grows (unless the reader scrolled up). */
export function ChatMessages({
  messages,
  empty,
  className,
  actions,
}: {
  messages: DisplayMessage[]
  empty?: React.ReactNode
  className?: string
  /** Copy, retry and vote under each answer (lib/feedback): where the conversation lives and who votes. */
  actions?: MessageActionsConfig
}) {
  const scroller = React.useRef<HTMLDivElement>(null)
  const pinned = React.useRef(true)
  const last = messages[messages.length - 1]

  React.useEffect(() => {
    const el = scroller.current
    if (el && pinned.current) el.scrollTop = el.scrollHeight
  }, [messages.length, last?.text, last?.status])

  return (
    <div
      ref={scroller}
      className={cn('min-h-0 flex-1 overflow-y-auto', className)}
      onScroll={e => {
        const el = e.currentTarget
        pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48
      }}
    >
      {messages.length === 0 ? (
        empty
      ) : (
        <ol className="grid gap-4 p-4" aria-label="Conversation" aria-live="polite" aria-relevant="additions">
          {messages.map(m => (
            <MessageBubble key={m.id} message={m} actions={actions} />
          ))}
        </ol>
      )}
    </div>
  )
}
