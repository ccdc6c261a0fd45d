'use client'

import * as React from 'react'
import { useQuery } from '@tanstack/react-query'
import { Coins, Gauge, ListTodo, ServerCog, TriangleAlert, type LucideIcon } from 'lucide-react'
import { PageHeader } from '@/components/layout/page-header'
import { LoadError, loadFailed, useErrorToast } from '@/components/layout/query-states'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { cn } from '@/lib/utils'
import { getSystem, systemQueryKey, type SystemFigures } from './system-api'

function Panel({ icon: Icon, title, testId, children }: { icon: LucideIcon; title: string; testId: string; children: React.ReactNode }) {
  return (
    <Card className="gap-3" data-testid={testId}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-sm font-medium">
          <Icon className="size-4 text-muted-foreground" aria-hidden /> {title}
        </CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1.5 text-sm">{children}</dl>
      </CardContent>
    </Card>
  )
}

function Figure({ label, value, alarm = false }: { label: string; value: React.ReactNode; alarm?: boolean }) {
  return (
    <>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className={cn('text-right font-medium tabular-nums', alarm && 'text-destructive')} data-figure={label}>
        {value}
      </dd>
    </>
  )
}

const ms = (v: number | null) => (v === null ? '—' : v < 1000 ? `${v} ms` : `${(v / 1000).toFixed(1)} s`)
const seconds = (v: number | null) => (v === null ? '—' : v < 120 ? `${v} s` : `${Math.round(v / 60)} min`)
const count = (n: number) => new Intl.NumberFormat().format(n)

/** "embedded, own thread, 2 statements waiting" / "PostgreSQL". */
function databaseSummary(database: SystemFigures['database']): string {
  if (database.kind === 'postgres') return 'PostgreSQL'
  if (!database.thread) return 'embedded, on the event loop'
  return `embedded, own thread, ${count(database.statementsWaiting ?? 0)} waiting`
}

function Figures({ data }: { data: SystemFigures }) {
  const { queue, failuresLastHour: f, modelLatency: l, tokensToday: t, model, worker, database } = data
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
      <Panel icon={ListTodo} title="Queue" testId="system-queue">
        <Figure label="Due jobs" value={count(queue.dueJobs)} />
        <Figure label="Running" value={count(queue.running)} />
        <Figure label="Oldest wait" value={seconds(queue.oldestDueSeconds)} alarm={(queue.oldestDueSeconds ?? 0) > 600} />
      </Panel>
      <Panel icon={TriangleAlert} title="Failures in the last hour" testId="system-failures">
        <Figure label="Datasources in error" value={`${count(f.datasourcesInError)} (${count(f.datasourcesInErrorTotal)} in all)`} alarm={f.datasourcesInError > 0} />
        <Figure label="Webhook deliveries failed" value={count(f.webhookDeliveriesFailed)} alarm={f.webhookDeliveriesFailed > 0} />
        <Figure label="Answers failed" value={count(f.modelCallFailures)} alarm={f.modelCallFailures > 0} />
      </Panel>
      <Panel icon={Gauge} title="Answer latency (last hour)" testId="system-latency">
        <Figure label="Answers" value={count(l.answers)} />
        <Figure label="p50" value={ms(l.p50Ms)} />
        <Figure label="p95" value={ms(l.p95Ms)} />
      </Panel>
      <Panel icon={Coins} title={`Tokens today (${t.day}, UTC)`} testId="system-tokens">
        <Figure label="Prompt" value={count(t.prompt)} />
        <Figure label="Completion" value={count(t.completion)} />
      </Panel>
      <Panel icon={ServerCog} title="Services" testId="system-services">
        <Figure label="Model server" value={model.status === 'up' ? 'answering' : model.status === 'down' ? 'not answering' : 'not configured'} alarm={model.status !== 'up'} />
        <Figure label="Sync workers" value={worker.alive > 0 ? `${worker.alive} running` : 'none running'} alarm={worker.alive === 0} />
        <Figure label="Database" value={databaseSummary(database)} />
      </Panel>
      {model.message && <p className="text-sm text-destructive sm:col-span-2 xl:col-span-3">Model server: {model.message}</p>}
    </div>
  )
}

/** The System page (admins, issue 27): the organization's operations at a glance, refreshed every 10 s. */
export function SystemView() {
  const query = useQuery({ queryKey: systemQueryKey, queryFn: getSystem, refetchInterval: 10_000 })
  useErrorToast(query.error, 'system-error', 'the system figures')
  return (
    <>
      <PageHeader title="System" description="The queue, what failed in the last hour, how fast agents answer and the tokens spent today. Prometheus has more at /api/metrics." />
      {query.isPending && <Skeleton className="h-48 w-full" />}
      {loadFailed(query) && <LoadError query={query} />}
      {query.data && <Figures data={query.data} />}
    </>
  )
}
