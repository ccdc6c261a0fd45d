'use client'

import * as React from 'react'
import Link from 'next/link'
import { ArrowLeft, type LucideIcon } from 'lucide-react'
import { ApiError } from '@/components/api-client'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { EmptyState } from './empty-state'
import { LoadError, loadFailed, useErrorToast, type QueryState } from './query-states'

/**
 * The frame of one resource's page (an agent, a datastore): the way back to its list, then `children`, or in their
 * place "does not exist" (a 404) or the load error. Errors other than a 404 are also toasted once.
 */
export function DetailFrame({
  query,
  what,
  toastId,
  back,
  notFound,
  children,
}: {
  query: QueryState
  /** e.g. "the agent", for the toast "Could not load the agent". */
  what: string
  toastId: string
  back: { href: string; label: string }
  notFound: { icon: LucideIcon; title: string }
  children: React.ReactNode
}) {
  const missing = query.error instanceof ApiError && query.error.status === 404
  useErrorToast(missing ? null : query.error, toastId, what)
  return (
    <>
      <Button asChild variant="ghost" size="sm" className="-ml-2 mb-2 w-fit text-muted-foreground">
        <Link href={back.href}>
          <ArrowLeft aria-hidden />
          {back.label}
        </Link>
      </Button>
      {missing ? (
        <EmptyState icon={notFound.icon} title={notFound.title}>
          It may have been deleted, or the link is wrong.
        </EmptyState>
      ) : loadFailed(query) ? (
        <LoadError query={query} />
      ) : (
        children
      )}
    </>
  )
}

/** The page's title, or its placeholder while the resource loads. */
export function DetailTitle({ title, skeletonClassName }: { title: string | undefined; skeletonClassName: string }) {
  return title !== undefined ? (
    // anywhere: a file name without spaces wraps too, and never widens a grid it sits in (a 390 px phone)
    <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">{title}</h1>
  ) : (
    <Skeleton className={skeletonClassName} />
  )
}
