'use client'

import * as React from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Send } from 'lucide-react'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { Textarea } from '@/components/ui/textarea'
import { sendOperatorReply } from './inbox-api'

/** An operator's reply to the visitor (issue 23): sending it takes the conversation over from the AI. */
export function ReplyBox({ conversationId, aiAnswers }: { conversationId: string; aiAnswers: boolean }) {
  const [text, setText] = React.useState('')
  const queryClient = useQueryClient()
  const send = useMutation({
    mutationFn: (message: string) => sendOperatorReply(conversationId, message),
    onSuccess: () => {
      setText('')
      void queryClient.invalidateQueries({ queryKey: ['inbox'] })
    },
    onError: error => toast.error(`The reply was not sent: ${error.message}`),
  })
  function submit(e: React.FormEvent) {
    e.preventDefault()
    if (text.trim()) send.mutate(text.trim())
  }
  return (
    <form onSubmit={submit} className="grid gap-2 border-t p-4" aria-label="Reply to the visitor">
      <label htmlFor={`reply-${conversationId}`} className="text-xs font-medium text-muted-foreground">
        Reply as yourself{aiAnswers ? ' (takes the conversation over from the AI)' : ''}
      </label>
      <Textarea
        id={`reply-${conversationId}`}
        value={text}
        onChange={e => setText(e.target.value)}
        onKeyDown={e => {
          if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) submit(e)
        }}
        placeholder="Write to the visitor…"
        rows={3}
        data-testid="reply-text"
      />
      <div className="flex justify-end">
        <Button type="submit" size="sm" disabled={send.isPending || !text.trim()} data-testid="reply-send">
          <Send aria-hidden /> {send.isPending ? 'Sending…' : 'Send reply'}
        </Button>
      </div>
    </form>
  )
}
