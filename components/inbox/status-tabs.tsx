'use client'

import { useQuery } from '@tanstack/react-query'
import { cn } from '@/lib/utils'
import { fetchInboxPage, INBOX_POLL_MS, type InboxFilterValues } from './inbox-api'

export type StatusTab = 'HUMAN_REQUESTED' | 'UNRESOLVED' | 'RESOLVED' | 'all'

const TABS: { value: StatusTab; label: string }[] = [
  { value: 'HUMAN_REQUESTED', label: 'Needs a human' },
  { value: 'UNRESOLVED', label: 'Open' },
  { value: 'RESOLVED', label: 'Resolved' },
  { value: 'all', label: 'All' },
]

/** The inbox's status tabs (issue 23), each with how many conversations it holds under the other filters. */
export function StatusTabs({ value, onChange, filters }: { value: StatusTab; onChange: (tab: StatusTab) => void; filters: InboxFilterValues }) {
  const counts = useQuery({
    queryKey: ['inbox', 'counts', filters],
    queryFn: () => fetchInboxPage({ ...filters, status: undefined }, undefined, 1),
    select: page => page.counts,
    refetchInterval: INBOX_POLL_MS,
  })
  return (
    <div role="tablist" aria-label="Conversations by status" className="flex flex-wrap gap-1 rounded-lg border bg-muted/40 p-1" data-testid="status-tabs">
      {TABS.map(tab => {
        const count = counts.data?.[tab.value]
        return (
          <button
            key={tab.value}
            type="button"
            role="tab"
            aria-selected={value === tab.value}
            onClick={() => onChange(tab.value)}
            data-testid={`status-tab-${tab.value}`}
            className={cn(
              'inline-flex items-center gap-1.5 rounded-md px-3 py-1.5 text-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
              value === tab.value ? 'bg-background font-medium shadow-sm' : 'text-muted-foreground hover:text-foreground',
            )}
          >
            {tab.label}
            {count !== undefined && (
              <span className={cn('rounded-full px-1.5 text-xs tabular-nums', tab.value === 'HUMAN_REQUESTED' && count > 0 ? 'bg-amber-500/20 text-amber-900 dark:text-amber-200' : 'bg-foreground/10 text-foreground')}>
                {count}
              </span>
            )}
          </button>
        )
      })}
    </div>
  )
}
