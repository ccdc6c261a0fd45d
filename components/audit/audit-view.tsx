'use client'

import * as React from 'react'
import { useInfiniteQuery } from '@tanstack/react-query'
import { Download, ScrollText } from 'lucide-react'
import { EmptyState } from '@/components/layout/empty-state'
import { PageHeader } from '@/components/layout/page-header'
import { useErrorToast } from '@/components/layout/query-states'
import { QueryTable } from '@/components/layout/query-table'
import { Timestamp } from '@/components/layout/timestamp'
import { Button, buttonVariants } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { TableCell, TableRow } from '@/components/ui/table'
import { auditExportHref, auditQueryKey, fetchAuditPage, type AuditFilterValues } from './audit-api'

/** Who changed what, newest first: filtered by actor and action, exported as CSV (admins). */
export function AuditView() {
  const [filters, setFilters] = React.useState<AuditFilterValues>({})
  const query = useInfiniteQuery({
    queryKey: auditQueryKey(filters),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => fetchAuditPage(filters, pageParam),
    getNextPageParam: last => last.nextCursor ?? undefined,
  })
  useErrorToast(query.error, 'audit-error', 'the audit log')
  const entries = query.data?.pages.flatMap(p => p.items) ?? []
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change made through the API or this dashboard: who, what, on what, from where. Kept for AUDIT_RETENTION_DAYS (365 by default)."
        action={
          <a className={buttonVariants({ variant: 'outline' })} href={auditExportHref(filters)} download>
            <Download aria-hidden className="size-4" /> Export CSV
          </a>
        }
      />
      <AuditFilters onApply={setFilters} />
      <QueryTable
        label="Audit log"
        query={query}
        isEmpty={entries.length === 0}
        empty={<EmptyState icon={ScrollText} title="Nothing recorded">No change matches these filters yet.</EmptyState>}
        columns={[{ label: 'When', className: 'pl-4' }, { label: 'Who' }, { label: 'Action' }, { label: 'Target', className: 'hidden md:table-cell' }, { label: 'From', className: 'hidden lg:table-cell' }]}
      >
        {entries.map(e => (
          <TableRow key={e.id} data-testid="audit-row">
            <TableCell className="pl-4 text-muted-foreground">
              <Timestamp iso={e.createdAt} />
            </TableCell>
            <TableCell className="whitespace-normal break-words">{e.actor.label}{e.actor.type === 'api_key' ? ' (API key)' : ''}</TableCell>
            <TableCell>
              <code className="font-mono text-xs">{e.action}</code>
            </TableCell>
            <TableCell className="hidden whitespace-normal break-words md:table-cell">{e.target ? e.target.name ?? e.target.id : '—'}</TableCell>
            <TableCell className="hidden text-muted-foreground lg:table-cell">{e.clientAddress ?? '—'}</TableCell>
          </TableRow>
        ))}
      </QueryTable>
      {query.hasNextPage ? (
        <Button variant="outline" className="mt-4" onClick={() => query.fetchNextPage()} disabled={query.isFetchingNextPage}>
          Older entries
        </Button>
      ) : null}
    </>
  )
}

function AuditFilters({ onApply }: { onApply: (filters: AuditFilterValues) => void }) {
  const [actor, setActor] = React.useState('')
  const [action, setAction] = React.useState('')
  const apply = (e: React.FormEvent) => {
    e.preventDefault()
    onApply({ actor: actor.trim() || undefined, action: action.trim() || undefined })
  }
  return (
    <form onSubmit={apply} className="mb-4 flex flex-wrap items-end gap-3" aria-label="Filter the audit log">
      <div className="grid gap-1">
        <Label htmlFor="audit-actor">Who (email or key name)</Label>
        <Input id="audit-actor" value={actor} onChange={e => setActor(e.target.value)} placeholder="admin@example.com" />
      </div>
      <div className="grid gap-1">
        <Label htmlFor="audit-action">Action</Label>
        <Input id="audit-action" value={action} onChange={e => setAction(e.target.value)} placeholder="datastore. or api_key.created" />
      </div>
      <Button type="submit" variant="secondary">Filter</Button>
    </form>
  )
}
