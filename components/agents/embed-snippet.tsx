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

/** The bubble (issue 14): a launcher and a chat panel on any page of the site. */
export function bubbleSnippet(origin: string, agent: Pick<Agent, 'id'>) {
  return `<script src="${origin}/widget.js" data-agent-id="${agent.id}" async></script>`
}

/** A page of a made-up site with the bubble on it, as the dashboard's preview shows it. */
function previewPage(origin: string, agent: Pick<Agent, 'id'>) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Preview</title>
<style>body{font:14px system-ui,sans-serif;margin:0;padding:20px;color:#3f3f46;background:#fafafa}.bar{height:10px;border-radius:5px;background:#e4e4e7;margin:10px 0}</style></head>
<body><p><strong>Your site</strong></p><div class="bar" style="width:70%"></div><div class="bar" style="width:90%"></div><div class="bar" style="width:55%"></div>
${bubbleSnippet(origin, agent)}</body></html>`
}

/** The bubble on a sample page, as the agent was last saved (reloaded after each save). */
function BubblePreview({ agent, origin }: { agent: Agent; origin: string }) {
  if (!origin || agent.visibility !== 'public') return null
  return (
    <div className="grid gap-2">
      <p className="text-sm font-medium" id="embed-preview-label">
        Preview
      </p>
      <iframe
        key={agent.updatedAt}
        title="Preview of the chat bubble on a page"
        aria-labelledby="embed-preview-label"
        srcDoc={previewPage(origin, agent)}
        className="h-[560px] w-full rounded-lg border bg-white"
        data-testid="embed-preview"
      />
    </div>
  )
}

export function curlSnippet(origin: string, agent: Pick<Agent, 'id'>) {
  return `curl -N ${origin}/api/agents/${agent.id}/query \\
  -H "Authorization: Bearer $API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"query": "What can you help me with?", "streaming": true}'`
}

/** A read-only snippet with its label and a Copy button (named `copyLabel`); the text is selected on focus. */
function SnippetField({
  id,
  label,
  copyLabel,
  value,
  ...props
}: { id: string; label: string; copyLabel: string; value: string } & Omit<React.ComponentProps<typeof Textarea>, 'id' | 'value'>) {
  const ref = React.useRef<HTMLTextAreaElement>(null)
  return (
    <div className="grid gap-2">
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={id}>{label}</Label>
        <CopyButton text={value} label="Copy" fallbackRef={ref} aria-label={copyLabel} disabled={!value} />
      </div>
      <Textarea
        ref={ref}
        id={id}
        readOnly
        value={value}
        spellCheck={false}
        onFocus={e => e.currentTarget.select()}
        className="field-sizing-fixed resize-none font-mono text-xs md:text-xs"
        {...props}
      />
    </div>
  )
}

/** The public chat link, the <iframe> to paste into a site, and an API call. */
export function EmbedSnippet({ agent }: { agent: Agent }) {
  const origin = useOrigin()
  const iframe = origin ? iframeSnippet(origin, agent) : ''
  const bubble = origin ? bubbleSnippet(origin, agent) : ''
  const curl = origin ? curlSnippet(origin, agent) : ''
  return (
    <Card>
      <CardHeader>
        <CardTitle>Share and embed</CardTitle>
        <CardDescription>Put the agent in your site as a chat bubble or an iframe, or call it from your code.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        {agent.visibility !== 'public' && (
          <p className="flex items-start gap-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
            This agent is private: its chat page and embeds say it is not available. Make it public above to share it.
          </p>
        )}
        <SnippetField id="embed-bubble" label="Chat bubble on every page" copyLabel="Copy the bubble snippet" value={bubble} rows={3} data-testid="bubble-snippet" />
        <BubblePreview agent={agent} origin={origin} />
        <SnippetField id="embed-iframe" label="Embed in a web page" copyLabel="Copy the iframe snippet" value={iframe} rows={3} data-testid="embed-snippet" />
        <div className="flex flex-wrap items-center gap-2">
          <Button asChild variant="outline" size="sm">
            <a href={`/chat/${agent.id}`} target="_blank" rel="noopener noreferrer">
              <ExternalLink aria-hidden />
              Open the chat page
            </a>
          </Button>
          <span className="min-w-0 truncate text-xs text-muted-foreground">{origin && `${origin}/chat/${agent.id}`}</span>
        </div>
        <SnippetField id="embed-curl" label="Call the API" copyLabel="Copy the API call" value={curl} rows={4} />
      </CardContent>
    </Card>
  )
}
