'use client'

import * as React from 'react'
import { Check, Copy } from 'lucide-react'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'

/** Copies text to the clipboard, falling back to selecting it in `fallback` (an input or textarea) for Ctrl+C. */
export async function copyToClipboard(text: string, fallback?: HTMLInputElement | HTMLTextAreaElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text)
      return true
    }
  } catch {
    // denied, or not a secure context (plain http on another host): try the old way
  }
  if (!fallback) return false
  fallback.focus()
  fallback.select()
  try {
    return document.execCommand('copy')
  } catch {
    return false
  }
}

export function CopyButton({
  text,
  label = 'Copy',
  fallbackRef,
  ...props
}: { text: string; label?: string; fallbackRef?: React.RefObject<HTMLInputElement | HTMLTextAreaElement | null> } & Omit<
  React.ComponentProps<typeof Button>,
  'onClick'
>) {
  const [copied, setCopied] = React.useState(false)
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      {...props}
      onClick={async () => {
        if (await copyToClipboard(text, fallbackRef?.current)) {
          setCopied(true)
          toast.success('Copied to the clipboard')
          setTimeout(() => setCopied(false), 2000)
        } else {
          fallbackRef?.current?.select()
          toast.error('Could not copy', { description: 'Select the text and copy it with Ctrl+C (⌘C on a Mac).' })
        }
      }}
    >
      {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
      {copied ? 'Copied' : label}
    </Button>
  )
}
