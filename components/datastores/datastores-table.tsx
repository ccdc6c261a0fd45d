'use client'

import Link from 'next/link'
import { useQuery } from '@tanstack/react-query'
import { Database } from 'lucide-react'
import { apiFetch } from '@/components/api-client'
import { formatDate, formatDateTime } from '@/components/format'
import { EmptyState } from '@/components/layout/empty-state'
import { LoadError, SkeletonRows, useErrorToast } from '@/components/layout/query-states'
import { Badge } from '@/components/ui/badge'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table'
import { CreateDatastoreDialog } from './create-datastore-dialog'
import { datastoresQueryKey, type Datastore } from './types'

export type { Datastore } from './types'
export { datastoresQueryKey }

const SEARCH_MODE_LABELS: Record<string, string> = { hybrid: 'Hybrid', fulltext: 'Full text' }

export const countOf = (n: number, noun: string) => `${n.toLocaleString()} ${noun}${n === 1 ? '' : 's'}`

export function useDatastores() {
  return useQuery({ queryKey: datastoresQueryKey, queryFn: () => apiFetch<Datastore[]>('/api/datastores') })
}

export function DatastoresTable() {
  const query = useDatastores()
  useErrorToast(query.error, 'datastores-error', 'datastores')

  if (query.isError && !query.data) {
    return <LoadError error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />
  }
  if (query.data && query.data.length === 0) {
    return (
      <EmptyState icon={Database} title="No datastores yet" action={<CreateDatastoreDialog />}>
        A datastore holds the knowledge an agent answers from: upload files (PDF, Word, PowerPoint, Excel, CSV, Markdown),
        add web pages or whole sites, or paste text.
      </EmptyState>
    )
  }

  return (
    <div className="rounded-xl border">
      <Table aria-busy={query.isPending} aria-label="Datastores">
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead className="pl-4">Name</TableHead>
            <TableHead className="hidden sm:table-cell">Visibility</TableHead>
            <TableHead>Content</TableHead>
            <TableHead className="hidden md:table-cell">Search</TableHead>
            <TableHead className="hidden pr-4 sm:table-cell">Updated</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {query.isPending ? (
            <SkeletonRows columns={5} />
          ) : (
            query.data?.map(ds => (
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
                  <Badge variant={ds.visibility === 'public' ? 'secondary' : 'outline'} className="capitalize">
                    {ds.visibility}
                  </Badge>
                </TableCell>
                <TableCell className="whitespace-normal text-muted-foreground">
                  {ds.nbDatasources === undefined ? '—' : (
                    <>
                      {countOf(ds.nbDatasources, 'source')}
                      <span className="hidden md:inline"> · {countOf(ds.nbChunks ?? 0, 'chunk')}</span>
                    </>
                  )}
                </TableCell>
                <TableCell className="hidden text-muted-foreground md:table-cell">
                  {ds.searchMode ? (SEARCH_MODE_LABELS[ds.searchMode] ?? ds.searchMode) : '—'}
                </TableCell>
                <TableCell className="hidden pr-4 text-muted-foreground sm:table-cell">
                  <time dateTime={ds.updatedAt} title={formatDateTime(ds.updatedAt)}>
                    {formatDate(ds.updatedAt)}
                  </time>
                </TableCell>
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </div>
  )
}
