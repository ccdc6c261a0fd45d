'use client'

import * as React from 'react'
import { Table, TableBody, TableHead, TableHeader, TableRow } from '@/components/ui/table'
import { LoadError, loadFailed, SkeletonRows, type QueryState } from './query-states'

export interface TableColumn {
  label: string
  className?: string
  /** Named for screen readers only (e.g. the actions column). */
  srOnly?: boolean
}

/**
 * A list query as a table: the load error (with a retry) when it failed, `empty` when it holds nothing, else the
 * table with skeleton rows while it loads and `children` (the rows) once it has.
 */
export function QueryTable({
  label,
  query,
  isEmpty,
  empty,
  columns,
  tableClassName,
  children,
}: {
  label: string
  query: QueryState
  isEmpty: boolean
  empty: React.ReactNode
  columns: TableColumn[]
  /** e.g. "table-fixed" so long names wrap instead of widening the table on a phone. */
  tableClassName?: string
  children: React.ReactNode
}) {
  if (loadFailed(query)) return <LoadError query={query} />
  if (isEmpty) return empty
  return (
    <div className="rounded-xl border">
      <Table aria-label={label} aria-busy={query.isPending} className={tableClassName}>
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            {columns.map(c => (
              <TableHead key={c.label} className={c.className}>
                {c.srOnly ? <span className="sr-only">{c.label}</span> : c.label}
              </TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>{query.isPending ? <SkeletonRows columns={columns.length} /> : children}</TableBody>
      </Table>
    </div>
  )
}
