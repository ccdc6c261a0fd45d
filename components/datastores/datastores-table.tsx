'use client'

import { useQuery } from '@tanstack/react-query'
import { Database } from 'lucide-react'
import { apiFetch } from '@/components/api-client'
import { formatDate } from '@/components/format'
import { EmptyState } from '@/components/layout/empty-state'
import { LoadError, SkeletonRows, useErrorToast } from '@/components/layout/query-states'
import { Badge } from '@/components/ui/badge'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table'

export interface Datastore {
  id: string
  name: string
  description: string | null
  visibility: string
  searchMode?: string
  nbDatasources?: number
  nbChunks?: number
  createdAt: string
  updatedAt: string
}

export const datastoresQueryKey = ['datastores'] as const

const SEARCH_MODE_LABELS: Record<string, string> = { hybrid: 'Hybrid', fulltext: 'Full text', vector: 'Vector' }

const count = (n: number, noun: string) => `${n.toLocaleString()} ${noun}${n === 1 ? '' : 's'}`

export function DatastoresTable() {
  const query = useQuery({ queryKey: datastoresQueryKey, queryFn: () => apiFetch<Datastore[]>('/api/datastores') })
  useErrorToast(query.error, 'datastores-error', 'datastores')

  if (query.isError && !query.data) {
    return <LoadError error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />
  }
  if (query.data && query.data.length === 0) {
    return (
      <EmptyState icon={Database} title="No datastores yet">
        A datastore holds the knowledge an agent answers from: upload files (PDF, Word, PowerPoint, Excel, CSV, Markdown),
        add web pages or whole sites, or paste text. Creating them from the dashboard comes next; the API can already do it.
      </EmptyState>
    )
  }

  return (
    <div className="rounded-xl border">
      <Table aria-busy={query.isPending} aria-label="Datastores">
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead className="pl-4">Name</TableHead>
            <TableHead>Visibility</TableHead>
            <TableHead className="hidden md:table-cell">Content</TableHead>
            <TableHead className="hidden sm:table-cell">Search</TableHead>
            <TableHead className="pr-4">Updated</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {query.isPending ? (
            <SkeletonRows columns={5} />
          ) : (
            query.data?.map(ds => (
              <TableRow key={ds.id}>
                <TableCell className="max-w-[16rem] py-3 pl-4 whitespace-normal">
                  <div className="font-medium break-words">{ds.name}</div>
                  {ds.description && <div className="line-clamp-2 text-xs text-muted-foreground">{ds.description}</div>}
                </TableCell>
                <TableCell>
                  <Badge variant={ds.visibility === 'public' ? 'secondary' : 'outline'} className="capitalize">
                    {ds.visibility}
                  </Badge>
                </TableCell>
                <TableCell className="hidden text-muted-foreground md:table-cell">
                  {ds.nbDatasources === undefined ? '—' : `${count(ds.nbDatasources, 'source')} · ${count(ds.nbChunks ?? 0, 'chunk')}`}
                </TableCell>
                <TableCell className="hidden text-muted-foreground sm:table-cell">
                  {ds.searchMode ? (SEARCH_MODE_LABELS[ds.searchMode] ?? ds.searchMode) : '—'}
                </TableCell>
                <TableCell className="pr-4 text-muted-foreground">
                  <time dateTime={ds.updatedAt} title={ds.updatedAt}>
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
