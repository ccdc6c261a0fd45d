'use client'

import * as React from 'react'
import { Check, Copy, RotateCcw, ThumbsDown, ThumbsUp } from 'lucide-react'
import { copyToClipboard } from '@/components/copy-button'
import { errorMessage } from '@/components/api-client'
import { Button } from '@/components/ui/button'
import { Textarea } from '@/components/ui/textarea'
import { cn } from '@/lib/utils'
import { postFeedback } from './chat-api'

/** What the actions under an answer need: where the answer lives and who votes (the page that shows the chat knows). */
export interface MessageActionsConfig {
  conversationId?: string
  /** The visitor of a public chat (its vote is the visitor's); absent in the dashboard (the vote is the user's). */
  visitorId?: string
  /** A verified visitor's signature (issue 22: its votes are signed as its queries are). */
  signature?: { signature: string; expires: number }
  credentials?: RequestCredentials
  /** Asks the question again; absent where answers cannot be retried (a conversation read back in the inbox). */
  onRetry?: (answerId: string) => void
  /** False hides the vote buttons (the inbox shows the votes received instead). */
  votes?: boolean
}

type Vote = 'good' | 'bad'

function useVote(config: MessageActionsConfig, messageId: string | undefined) {
  const [vote, setVote] = React.useState<Vote | null>(null)
  const [status, setStatus] = React.useState<{ kind: 'idle' | 'saving' | 'saved' | 'error'; message?: string }>({ kind: 'idle' })
  const send = React.useCallback(
    async (next: Vote, comment?: string) => {
      if (!config.conversationId || !messageId) return
      setVote(next)
      setStatus({ kind: 'saving' })
      try {
        await postFeedback({ conversationId: config.conversationId, messageId }, { vote: next, comment: comment || null, visitorId: config.visitorId, visitorSignature: config.signature?.signature, visitorExpires: config.signature?.expires }, config.credentials)
        setStatus({ kind: 'saved' })
      } catch (error) {
        setStatus({ kind: 'error', message: errorMessage(error) })
      }
    },
    [config.conversationId, config.credentials, config.visitorId, config.signature, messageId],
  )
  return { vote, status, send }
}

function CommentForm({ onSend, onCancel }: { onSend: (comment: string) => void; onCancel: () => void }) {
  const [comment, setComment] = React.useState('')
  const id = React.useId()
  return (
    <form
      className="mt-2 grid gap-2"
      onSubmit={e => {
        e.preventDefault()
        onSend(comment.trim())
      }}
    >
      <label htmlFor={id} className="text-xs text-muted-foreground">
        What was wrong? (optional)
      </label>
      <Textarea id={id} value={comment} onChange={e => setComment(e.target.value)} maxLength={2000} rows={2} className="min-h-12 text-sm" data-testid="feedback-comment" />
      <div className="flex gap-2">
        <Button type="submit" size="sm" data-testid="feedback-send">
          Send
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={onCancel}>
          Skip
        </Button>
      </div>
    </form>
  )
}

/** Copy, retry, and a thumbs up / down (with an optional comment on a thumbs down) under an agent's answer. */
export function MessageActions({ text, answerId, messageId, config }: { text: string; answerId: string; messageId?: string; config: MessageActionsConfig }) {
  const { vote, status, send } = useVote(config, messageId)
  const [copied, setCopied] = React.useState(false)
  const [commenting, setCommenting] = React.useState(false)
  const canVote = config.votes !== false && Boolean(config.conversationId && messageId)
  const icon = 'size-7 text-muted-foreground hover:text-foreground'
  return (
    <div className="mt-1.5" data-testid="message-actions">
      <div className="flex items-center gap-0.5">
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className={icon}
          aria-label={copied ? 'Copied' : 'Copy the answer'}
          onClick={async () => {
            if (await copyToClipboard(text)) {
              setCopied(true)
              setTimeout(() => setCopied(false), 1500)
            }
          }}
        >
          {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
        </Button>
        {config.onRetry && (
          <Button type="button" variant="ghost" size="icon" className={icon} aria-label="Ask again" onClick={() => config.onRetry?.(answerId)} data-testid="answer-retry">
            <RotateCcw aria-hidden />
          </Button>
        )}
        {canVote && (
          <>
            <Button type="button" variant="ghost" size="icon" className={cn(icon, vote === 'good' && 'text-primary')} aria-label="Good answer" aria-pressed={vote === 'good'} data-testid="vote-good" onClick={() => { setCommenting(false); void send('good') }}>
              <ThumbsUp aria-hidden className={cn(vote === 'good' && 'fill-current')} />
            </Button>
            <Button type="button" variant="ghost" size="icon" className={cn(icon, vote === 'bad' && 'text-destructive')} aria-label="Bad answer" aria-pressed={vote === 'bad'} data-testid="vote-bad" onClick={() => { setCommenting(true); void send('bad') }}>
              <ThumbsDown aria-hidden className={cn(vote === 'bad' && 'fill-current')} />
            </Button>
          </>
        )}
        <span className="ml-1 text-xs text-muted-foreground" role="status" data-testid="feedback-status">
          {copied ? 'Copied' : status.kind === 'saved' ? 'Thanks for the feedback' : status.kind === 'error' ? `Not saved: ${status.message}` : ''}
        </span>
      </div>
      {commenting && vote === 'bad' && (
        <CommentForm
          onCancel={() => setCommenting(false)}
          onSend={comment => {
            setCommenting(false)
            if (comment) void send('bad', comment)
          }}
        />
      )}
    </div>
  )
}
