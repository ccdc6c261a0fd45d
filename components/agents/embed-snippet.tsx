'use client'

import * as React from 'react'
import { ExternalLink, TriangleAlert } from 'lucide-react'
import { CopyButton } from '@/components/copy-button'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Label } from '@/components/ui/label'
import { Textarea } from '@/components/ui/textarea'
import type { Agent } from './types'

function useOrigin() {
  const [origin, setOrigin] = React.useState('')
  React.useEffect(() => setOrigin(window.location.origin), [])
  return origin
}

function escapeAttribute(value: string) {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
}

export function iframeSnippet(origin: string, agent: Pick<Agent, 'id' | 'name'>) {
  return `<iframe src="${origin}/chat/${agent.id}" title="${escapeAttribute(agent.name)}" width="100%" height="640" style="border: 0; border-radius: 12px; max-width: 480px;" allow="clipboard-write"></iframe>`
}

export function curlSnippet(origin: string, agent: Pick<Agent, 'id'>) {
  return `curl -N ${origin}/api/agents/${agent.id}/query \\
  -H "Authorization: Bearer $API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"query": "What can you help me with?", "streaming": true}'`
}

/** The public chat link, the <iframe> to paste into a site, and an API call. */
export function EmbedSnippet({ agent }: { agent: Agent }) {
  const origin = useOrigin()
  const iframeRef = React.useRef<HTMLTextAreaElement>(null)
  const curlRef = React.useRef<HTMLTextAreaElement>(null)
  const iframe = origin ? iframeSnippet(origin, agent) : ''
  const curl = origin ? curlSnippet(origin, agent) : ''
  return (
    <Card>
      <CardHeader>
        <CardTitle>Share and embed</CardTitle>
        <CardDescription>Put the agent in your site with an iframe, or call it from your code.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        {agent.visibility !== 'public' && (
          <p className="flex items-start gap-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
            This agent is private: its chat page and embeds say it is not available. Make it public above to share it.
          </p>
        )}
        <div className="grid gap-2">
          <div className="flex items-center justify-between gap-2">
            <Label htmlFor="embed-iframe">Embed in a web page</Label>
            <CopyButton text={iframe} label="Copy" fallbackRef={iframeRef} aria-label="Copy the iframe snippet" disabled={!iframe} />
          </div>
          <Textarea
            ref={iframeRef}
            id="embed-iframe"
            data-testid="embed-snippet"
            readOnly
            value={iframe}
            rows={3}
            spellCheck={false}
            onFocus={e => e.currentTarget.select()}
            className="field-sizing-fixed resize-none font-mono text-xs md:text-xs"
          />
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Button asChild variant="outline" size="sm">
            <a href={`/chat/${agent.id}`} target="_blank" rel="noopener noreferrer">
              <ExternalLink aria-hidden />
              Open the chat page
            </a>
          </Button>
          <span className="min-w-0 truncate text-xs text-muted-foreground">{origin && `${origin}/chat/${agent.id}`}</span>
        </div>
        <div className="grid gap-2">
          <div className="flex items-center justify-between gap-2">
            <Label htmlFor="embed-curl">Call the API</Label>
            <CopyButton text={curl} label="Copy" fallbackRef={curlRef} aria-label="Copy the API call" disabled={!curl} />
          </div>
          <Textarea
            ref={curlRef}
            id="embed-curl"
            readOnly
            value={curl}
            rows={4}
            spellCheck={false}
            onFocus={e => e.currentTarget.select()}
            className="field-sizing-fixed resize-none font-mono text-xs md:text-xs"
          />
        </div>
      </CardContent>
    </Card>
  )
}
