'use client'

import Link from 'next/link'
import { useQuery } from '@tanstack/react-query'
import { Database } from 'lucide-react'
import { countOf } from '@/components/format'
import { EmptyState } from '@/components/layout/empty-state'
import { useErrorToast } from '@/components/layout/query-states'
import { QueryTable } from '@/components/layout/query-table'
import { Timestamp } from '@/components/layout/timestamp'
import { VisibilityBadge } from '@/components/layout/visibility-badge'
import { TableCell, TableRow } from '@/components/ui/table'
import { CreateDatastoreDialog } from './create-datastore-dialog'
import { listDatastores } from './datastores-api'
import { datastoresQueryKey, type Datastore } from './types'

export type { Datastore } from './types'
export { datastoresQueryKey }

const SEARCH_MODE_LABELS: Record<Datastore['searchMode'], string> = { hybrid: 'Hybrid', fulltext: 'Full text' }

export function useDatastores() {
  return useQuery({ queryKey: datastoresQueryKey, queryFn: listDatastores })
}

export function DatastoresTable() {
  const query = useDatastores()
  useErrorToast(query.error, 'datastores-error', 'datastores')

  return (
    <QueryTable
      label="Datastores"
      query={query}
      isEmpty={query.data?.length === 0}
      empty={
        <EmptyState icon={Database} title="No datastores yet" action={<CreateDatastoreDialog />}>
          A datastore holds the knowledge an agent answers from: upload files (PDF, Word, PowerPoint, Excel, CSV, Markdown),
          add web pages or whole sites, or paste text.
        </EmptyState>
      }
      columns={[
        { label: 'Name', className: 'pl-4' },
        { label: 'Visibility', className: 'hidden sm:table-cell' },
        { label: 'Content' },
        { label: 'Search', className: 'hidden md:table-cell' },
        { label: 'Updated', className: 'hidden pr-4 sm:table-cell' },
      ]}
    >
      {query.data?.map(ds => (
        <TableRow key={ds.id} data-testid="datastore-row" className="relative">
          <TableCell className="max-w-[16rem] py-3 pl-4 whitespace-normal">
            <Link
              href={`/datastores/${ds.id}`}
              className="font-medium break-words underline-offset-4 outline-none after:absolute after:inset-0 hover:underline focus-visible:underline"
            >
              {ds.name}
            </Link>
            {ds.description && <div className="line-clamp-2 text-xs text-muted-foreground">{ds.description}</div>}
          </TableCell>
          <TableCell className="hidden sm:table-cell">
            <VisibilityBadge visibility={ds.visibility} />
          </TableCell>
          <TableCell className="whitespace-normal text-muted-foreground">
            {countOf(ds.nbDatasources, 'source')}
            <span className="hidden md:inline"> · {countOf(ds.nbChunks, 'chunk')}</span>
          </TableCell>
          <TableCell className="hidden text-muted-foreground md:table-cell">
            {SEARCH_MODE_LABELS[ds.searchMode] ?? ds.searchMode}
          </TableCell>
          <TableCell className="hidden pr-4 text-muted-foreground sm:table-cell">
            <Timestamp iso={ds.updatedAt} />
          </TableCell>
        </TableRow>
      ))}
    </QueryTable>
  )
}
