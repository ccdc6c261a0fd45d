'use client'

import type { ConversationChannel } from '@/lib/domain/agents'
import * as React from 'react'
import { useQuery } from '@tanstack/react-query'
import { Download, Search, X } from 'lucide-react'
import { listAgents } from '@/components/agents/agents-api'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { exportHref, type InboxFilterValues } from './inbox-api'
import { FilterSelect } from './filter-select'

export const CHANNEL_LABELS: Record<ConversationChannel, string> = { api: 'API', dashboard: 'Playground', website: 'Website' }

/** The text box: the filter follows the typing after a short pause. */
function SearchBox({ value, onChange }: { value: string; onChange: (q: string) => void }) {
  const [text, setText] = React.useState(value)
  React.useEffect(() => setText(value), [value])
  React.useEffect(() => {
    if (text === value) return
    const timer = setTimeout(() => onChange(text), 300)
    return () => clearTimeout(timer)
  }, [text, value, onChange])
  return (
    <div className="relative col-span-2 min-w-0">
      <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
      <Input
        type="search"
        value={text}
        onChange={e => setText(e.target.value)}
        placeholder="Search the messages…"
        aria-label="Search the messages"
        className="pl-8"
        data-testid="inbox-search"
      />
    </div>
  )
}

export function InboxFilters({
  value,
  onChange,
  fixedAgentId,
}: {
  value: InboxFilterValues
  onChange: (next: InboxFilterValues) => void
  /** The agent's own inbox: no agent filter. */
  fixedAgentId?: string
}) {
  const agents = useQuery({ queryKey: ['agents'], queryFn: listAgents, enabled: !fixedAgentId })
  const set = <K extends keyof InboxFilterValues>(key: K) => (v: InboxFilterValues[K] | '') => onChange({ ...value, [key]: v || undefined })
  const onSearch = React.useCallback((q: string) => onChange({ ...value, q: q || undefined }), [onChange, value])
  const filtered = Object.entries(value).some(([k, v]) => v && k !== 'agentId') || (!fixedAgentId && value.agentId)
  const scope = fixedAgentId ? { ...value, agentId: fixedAgentId } : value
  return (
    <div className="grid gap-3 rounded-xl border p-3" role="search" aria-label="Filter the conversations">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
        <SearchBox value={value.q ?? ''} onChange={onSearch} />
        {!fixedAgentId && (
          <FilterSelect
            id="inbox-agent"
            label="Agent"
            value={value.agentId ?? ''}
            onChange={set('agentId')}
            options={[{ value: '', label: 'All agents' }, ...(agents.data ?? []).map(a => ({ value: a.id, label: a.name }))]}
          />
        )}
        <FilterSelect
          id="inbox-channel"
          label="Channel"
          value={value.channel ?? ''}
          onChange={set('channel')}
          options={[{ value: '', label: 'All channels' }, ...Object.entries(CHANNEL_LABELS).map(([v, label]) => ({ value: v as keyof typeof CHANNEL_LABELS, label }))]}
        />
        <FilterSelect
          id="inbox-feedback"
          label="Feedback"
          value={value.feedback ?? ''}
          onChange={set('feedback')}
          options={[{ value: '', label: 'Any' }, { value: 'good', label: 'Voted up' }, { value: 'bad', label: 'Voted down' }, { value: 'none', label: 'No vote' }]}
        />
        <FilterSelect
          id="inbox-sources"
          label="Sources"
          value={value.sources ?? ''}
          onChange={set('sources')}
          options={[{ value: '', label: 'Any' }, { value: 'none', label: 'No sources' }, { value: 'weak', label: 'No or weak sources' }]}
        />
        {(['from', 'to'] as const).map(key => (
          <div key={key} className="grid min-w-0 gap-1">
            <label htmlFor={`inbox-${key}`} className="text-xs font-medium text-muted-foreground">
              {key === 'from' ? 'From' : 'To'}
            </label>
            <Input id={`inbox-${key}`} type="date" value={value[key] ?? ''} onChange={e => set(key)(e.target.value)} className="min-w-0" />
          </div>
        ))}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {filtered && (
          <Button variant="ghost" size="sm" onClick={() => onChange({})}>
            <X aria-hidden />
            Clear filters
          </Button>
        )}
        <span className="sr-only text-xs text-muted-foreground sm:not-sr-only sm:ml-auto">Export what the filters show:</span>
        {(['jsonl', 'csv'] as const).map(format => (
          <Button key={format} asChild variant="outline" size="sm">
            <a href={exportHref(scope, format)} download data-testid={`export-${format}`}>
              <Download aria-hidden />
              {format.toUpperCase()}
            </a>
          </Button>
        ))}
      </div>
    </div>
  )
}
