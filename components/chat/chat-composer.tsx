'use client'

import * as React from 'react'
import { ArrowUp, Square } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { cn } from '@/lib/utils'

/** The question box: Enter sends, Shift+Enter adds a line; while an answer streams, the button stops it. */
export function ChatComposer({
  onSend,
  onStop,
  busy,
  disabled,
  placeholder = 'Ask a question…',
  className,
}: {
  onSend: (text: string) => void
  onStop: () => void
  busy: boolean
  disabled?: boolean
  placeholder?: string
  className?: string
}) {
  const [text, setText] = React.useState('')
  const ref = React.useRef<HTMLTextAreaElement>(null)

  function submit() {
    if (busy || disabled || !text.trim()) return
    onSend(text)
    setText('')
    ref.current?.focus()
  }

  return (
    <form
      className={cn('flex items-end gap-2 border-t bg-background p-3', className)}
      onSubmit={e => {
        e.preventDefault()
        submit()
      }}
    >
      <label htmlFor="chat-input" className="sr-only">
        Your question
      </label>
      <textarea
        ref={ref}
        id="chat-input"
        value={text}
        onChange={e => setText(e.target.value)}
        onKeyDown={e => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault()
            submit()
          }
        }}
        rows={1}
        maxLength={16000}
        disabled={disabled}
        placeholder={placeholder}
        className="field-sizing-content max-h-40 min-h-10 flex-1 resize-none rounded-xl border border-input bg-transparent px-3.5 py-2.5 text-base shadow-xs outline-none placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:opacity-50 md:text-sm"
      />
      {busy ? (
        <Button type="button" size="icon" variant="outline" className="size-10 shrink-0 rounded-xl" onClick={onStop} aria-label="Stop the answer">
          <Square className="fill-current" aria-hidden />
        </Button>
      ) : (
        <Button type="submit" size="icon" className="size-10 shrink-0 rounded-xl" disabled={disabled || !text.trim()} aria-label="Send">
          <ArrowUp aria-hidden />
        </Button>
      )}
    </form>
  )
}
