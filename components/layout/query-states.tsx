'use client'

import * as React from 'react'
import { RefreshCw, TriangleAlert } from 'lucide-react'
import { toast } from 'sonner'
import { errorMessage } from '@/components/api-client'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { TableCell, TableRow } from '@/components/ui/table'

/** What the loading, empty and error states read of a TanStack query (plain or infinite). */
export interface QueryState {
  data: unknown
  error: unknown
  isError: boolean
  isPending: boolean
  isFetching: boolean
  refetch: () => unknown
}

/** The query failed and there is nothing to show instead (a failed refetch keeps showing the last data). */
export const loadFailed = (query: QueryState) => query.isError && !query.data

/** Shows a query's error as a toast, once per error. */
export function useErrorToast(error: unknown, id: string, what: string) {
  React.useEffect(() => {
    if (error) toast.error(`Could not load ${what}`, { id, description: errorMessage(error) })
  }, [error, id, what])
}

/** Placeholder rows while a table loads. */
export function SkeletonRows({ rows = 3, columns }: { rows?: number; columns: number }) {
  return (
    <>
      {Array.from({ length: rows }, (_, r) => (
        <TableRow key={r} aria-hidden className="hover:bg-transparent">
          {Array.from({ length: columns }, (_, c) => (
            <TableCell key={c} className="py-3">
              <Skeleton className={c === 0 ? 'h-4 w-32' : 'h-4 w-20'} />
            </TableCell>
          ))}
        </TableRow>
      ))}
    </>
  )
}

/** In place of what a query could not load: its error, and a way to ask again. */
export function LoadError({ query }: { query: QueryState }) {
  const retrying = query.isFetching
  return (
    <div role="alert" className="flex flex-col items-center gap-3 rounded-xl border border-destructive/30 bg-destructive/5 px-6 py-10 text-center">
      <TriangleAlert className="size-6 text-destructive" aria-hidden />
      <p className="text-sm font-medium">{errorMessage(query.error)}</p>
      <Button variant="outline" size="sm" onClick={() => void query.refetch()} disabled={retrying}>
        <RefreshCw className={retrying ? 'animate-spin' : undefined} aria-hidden />
        Try again
      </Button>
    </div>
  )
}
