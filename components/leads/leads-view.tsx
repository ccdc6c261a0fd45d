'use client'

import * as React from 'react'
import Link from 'next/link'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { Download, Mail } from 'lucide-react'
import { listAgents } from '@/components/agents/agents-api'
import { FilterSelect } from '@/components/inbox/filter-select'
import { EmptyState } from '@/components/layout/empty-state'
import { QueryTable } from '@/components/layout/query-table'
import { Timestamp } from '@/components/layout/timestamp'
import { Button } from '@/components/ui/button'
import { TableCell, TableRow } from '@/components/ui/table'
import { fetchLeadsPage, leadsExportHref } from './leads-api'

const COLUMNS = [{ label: 'Email' }, { label: 'Agent' }, { label: 'Conversation' }, { label: 'Left' }]

/** The emails visitors left (Chaindesk's lead form, our chat), newest first, of every agent or one; CSV export. */
export function LeadsView() {
  const [agentId, setAgentId] = React.useState('')
  const agents = useQuery({ queryKey: ['agents'], queryFn: listAgents })
  const leads = useInfiniteQuery({
    queryKey: ['leads', agentId],
    queryFn: ({ pageParam }) => fetchLeadsPage(agentId || undefined, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: last => last.nextCursor ?? undefined,
  })
  const items = leads.data?.pages.flatMap(p => p.items) ?? []
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <FilterSelect id="leads-agent" label="Agent" value={agentId} onChange={setAgentId} className="w-56" options={[{ value: '', label: 'All agents' }, ...(agents.data ?? []).map(a => ({ value: a.id, label: a.name }))]} />
        <Button variant="outline" size="sm" asChild>
          <a href={leadsExportHref(agentId || undefined)} download data-testid="leads-export">
            <Download aria-hidden /> Export CSV
          </a>
        </Button>
      </div>
      <QueryTable
        label="Leads"
        query={leads}
        isEmpty={!leads.isPending && items.length === 0}
        empty={
          <EmptyState icon={Mail} title="No leads yet">
            When a visitor leaves an email in the chat (&quot;Let us know how to contact you&quot;), it is listed here.
          </EmptyState>
        }
        columns={COLUMNS}
      >
        {items.map(l => (
          <TableRow key={l.id} data-testid="lead-row">
            <TableCell className="break-all">
              <span className="font-medium">{l.email}</span>
              {/* the agent's lead_capture tool may keep a name and phone too */}
              {(l.name || l.phone) && <span className="block text-xs text-muted-foreground">{[l.name, l.phone].filter(Boolean).join(' · ')}</span>}
            </TableCell>
            <TableCell>{l.agentName}</TableCell>
            <TableCell>{l.conversationId ? <Link className="underline" href={`/conversations?c=${encodeURIComponent(l.conversationId)}`}>Open</Link> : '—'}</TableCell>
            <TableCell>
              <Timestamp iso={l.createdAt} relative />
            </TableCell>
          </TableRow>
        ))}
      </QueryTable>
      {leads.hasNextPage && (
        <Button variant="outline" size="sm" className="justify-self-center" onClick={() => void leads.fetchNextPage()} disabled={leads.isFetchingNextPage}>
          {leads.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </Button>
      )}
    </div>
  )
}
