'use client'

import * as React from 'react'
import { useQuery } from '@tanstack/react-query'
import { Bot, Coins, Database, Search, ThumbsUp } from 'lucide-react'
import type { LucideIcon } from 'lucide-react'
import { LoadError, loadFailed, useErrorToast } from '@/components/layout/query-states'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Progress } from '@/components/ui/progress'
import { Skeleton } from '@/components/ui/skeleton'
import { cn } from '@/lib/utils'
import { getUsage, usageQueryKey } from './usage-api'

const monthName = (month: string) => {
  const [y, m] = month.split('-').map(Number)
  if (!y || !m) return month
  return new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, 1)))
}

function compact(n: number) {
  return new Intl.NumberFormat(undefined, { notation: n >= 100_000 ? 'compact' : 'standard', maximumFractionDigits: 1 }).format(n)
}

/** A card with an icon, a title and what it counts. */
function StatCard({
  icon: Icon,
  title,
  description,
  contentClassName,
  children,
  ...props
}: { icon: LucideIcon; title: string; description: string; contentClassName?: string; children: React.ReactNode } & Omit<
  React.ComponentProps<typeof Card>,
  'title'
>) {
  return (
    <Card className="gap-4" {...props}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-sm font-medium">
          <Icon className="size-4 text-muted-foreground" aria-hidden />
          {title}
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className={contentClassName}>{children}</CardContent>
    </Card>
  )
}

function Meter({ used, limit, ...card }: { icon: LucideIcon; title: string; description: string; used: number; limit: number }) {
  const ratio = limit > 0 ? used / limit : 1
  const percent = Math.min(100, Math.round(ratio * 1000) / 10)
  const tone = ratio >= 1 ? 'bg-destructive' : ratio >= 0.8 ? 'bg-amber-500' : 'bg-primary'
  return (
    <StatCard {...card} data-testid="usage-meter" contentClassName="grid gap-2">
      <p className="text-2xl font-semibold tabular-nums">
        {compact(used)}
        <span className="text-base font-normal text-muted-foreground"> / {compact(limit)}</span>
      </p>
      <Progress value={percent} indicatorClassName={tone} aria-label={`${card.title}: ${percent}% of the limit`} />
      <p className={cn('text-xs', ratio >= 1 ? 'font-medium text-destructive' : 'text-muted-foreground')}>
        {ratio >= 1 ? 'Limit reached' : `${used > 0 && percent < 1 ? 'Less than 1%' : `${percent}%`} used · ${compact(Math.max(0, limit - used))} left`}
      </p>
    </StatCard>
  )
}

export function UsageView() {
  const query = useQuery({ queryKey: usageQueryKey, queryFn: getUsage, refetchInterval: 30_000 })
  useErrorToast(query.error, 'usage-error', 'usage')

  if (loadFailed(query)) return <LoadError query={query} />
  if (!query.data) {
    return (
      <div className="grid gap-4 sm:grid-cols-2">
        {[0, 1, 2, 3].map(i => (
          <Skeleton key={i} className="h-44 rounded-xl" />
        ))}
      </div>
    )
  }
  const u = query.data
  return (
    <div className="grid gap-4">
      <p className="text-sm text-muted-foreground">
        <span className="font-medium text-foreground">{monthName(u.month)}</span> (UTC). Monthly counters start again on the
        first day of next month.
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <Meter icon={Bot} title="Agent queries" description="Questions answered by your agents this month" used={u.agentQueries.used} limit={u.agentQueries.limit} />
        <Meter
          icon={Database}
          title="Stored tokens"
          description="Content held in your datastores now (not monthly)"
          used={u.storedTokens.used}
          limit={u.storedTokens.limit}
        />
        <StatCard icon={Search} title="Datastore queries" description="Searches of your datastores this month">
          <p className="text-2xl font-semibold tabular-nums">{u.datastoreQueries.used.toLocaleString()}</p>
          <p className="text-xs text-muted-foreground">No limit</p>
        </StatCard>
        <StatCard icon={Coins} title="Model tokens" description="Sent to and received from the chat model this month">
          <dl className="grid grid-cols-2 gap-2">
            <div>
              <dt className="text-xs text-muted-foreground">Prompt</dt>
              <dd className="text-2xl font-semibold tabular-nums">{compact(u.modelTokens.prompt)}</dd>
            </div>
            <div>
              <dt className="text-xs text-muted-foreground">Completion</dt>
              <dd className="text-2xl font-semibold tabular-nums">{compact(u.modelTokens.completion)}</dd>
            </div>
          </dl>
        </StatCard>
        <StatCard icon={ThumbsUp} title="Votes on answers" description="Thumbs up and down given this month">
          <dl className="grid grid-cols-2 gap-2">
            <div>
              <dt className="text-xs text-muted-foreground">Up</dt>
              <dd className="text-2xl font-semibold tabular-nums">{compact(u.feedback?.good ?? 0)}</dd>
            </div>
            <div>
              <dt className="text-xs text-muted-foreground">Down</dt>
              <dd className="text-2xl font-semibold tabular-nums">{compact(u.feedback?.bad ?? 0)}</dd>
            </div>
          </dl>
        </StatCard>
      </div>
    </div>
  )
}
