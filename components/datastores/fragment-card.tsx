'use client'

import * as React from 'react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import type { Fragment } from './types'

// One fragment the search tester found: its relevance, where it comes from (datasource, page, custom id), its text.

/** "3", or "3–4" for a fragment spanning pages; null when the fragment has no page (not from a PDF). */
function pageOf(metadata: Record<string, unknown>): string | null {
  const page = metadata.page
  if (typeof page === 'number' || (typeof page === 'string' && page.trim())) return String(page)
  return null
}

/** How relevant the score says the fragment is, in words, for the badge's title. */
function relevanceWords(score: number): string {
  if (score >= 0.6) return 'strong match'
  if (score >= 0.3) return 'partial match'
  return 'weak match'
}

export function FragmentCard({ fragment, rank, minScore }: { fragment: Fragment; rank: number; minScore: number | null }) {
  const [open, setOpen] = React.useState(false)
  const long = fragment.text.length > 600
  const isUrl = /^https?:\/\//i.test(fragment.source)
  const page = pageOf(fragment.metadata ?? {})
  const percent = Math.round(Math.max(0, Math.min(1, fragment.score)) * 100)
  return (
    <li data-testid="fragment" className="grid gap-2 rounded-xl border p-4">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
        <span className="font-semibold text-foreground">#{rank}</span>
        <Badge
          variant="secondary"
          className="font-mono tabular-nums"
          data-testid="fragment-score"
          title={`Relevance ${fragment.score.toFixed(4)} (0 to 1, comparable across questions): ${relevanceWords(fragment.score)}${minScore !== null ? `; the floor is ${minScore}` : ''}`}
        >
          relevance score {fragment.score.toFixed(4)}
        </Badge>
        <span aria-hidden className="h-1.5 w-16 overflow-hidden rounded-full bg-muted">
          <span className="block h-full rounded-full bg-primary" style={{ width: `${percent}%` }} />
        </span>
        <span>
          from <span className="font-medium text-foreground">{fragment.datasource_name}</span>
        </span>
        {page && <span data-testid="fragment-page">page {page}</span>}
        {fragment.custom_id && (
          <span title="The id you gave this document (custom_id)">
            your id <code className="font-mono">{fragment.custom_id}</code>
          </span>
        )}
      </div>
      <p className={`text-sm whitespace-pre-wrap break-words ${!open && long ? 'line-clamp-6' : ''}`} data-testid="fragment-text">
        {fragment.text}
      </p>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="min-w-0 truncate text-xs text-muted-foreground" title={fragment.source}>
          Source:{' '}
          {isUrl ? (
            <a href={fragment.source} target="_blank" rel="noopener noreferrer" className="underline underline-offset-4">
              {fragment.source}
            </a>
          ) : (
            fragment.source
          )}
        </span>
        {long && (
          <Button type="button" variant="link" size="sm" className="h-auto p-0" onClick={() => setOpen(o => !o)} aria-expanded={open}>
            {open ? 'Show less' : 'Show all'}
          </Button>
        )}
      </div>
    </li>
  )
}
