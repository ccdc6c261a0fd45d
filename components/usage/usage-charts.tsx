'use client'

import type { ConversationChannel } from '@/lib/domain/agents'
import * as React from 'react'
import { useQuery } from '@tanstack/react-query'
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { listAgents } from '@/components/agents/agents-api'
import { FilterSelect } from '@/components/inbox/filter-select'
import { CHANNEL_LABELS } from '@/components/inbox/inbox-filters'
import { LoadError, loadFailed, useErrorToast } from '@/components/layout/query-states'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { dailyUsageQueryKey, getDailyUsage, type DailyUsage } from './usage-api'

const COLORS = { questions: '#2563eb', good: '#16a34a', bad: '#dc2626', prompt: '#7c3aed', completion: '#db2777', queries: '#0891b2' }
const shortDay = (day: string) => day.slice(5)
type Series = { key: string; name: string; color: string }[]

/** One bar chart of a daily (or per agent / per channel) series, with its caption and total for screen readers. */
function ChartCard({ title, description, data, x, series, total }: { title: string; description: string; data: object[]; x: string; series: Series; total: string }) {
  return (
    <Card className="min-w-0 gap-3" data-testid="usage-chart">
      <CardHeader>
        <CardTitle className="text-sm font-medium">{title}</CardTitle>
        <CardDescription>
          {description} <span className="font-medium text-foreground">{total}</span>
        </CardDescription>
      </CardHeader>
      <CardContent>
        <figure aria-label={`${title}: ${total}`} className="h-48 w-full min-w-0">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={data} accessibilityLayer={false} margin={{ top: 4, right: 4, bottom: 0, left: -16 }}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey={x} tickFormatter={x === 'day' ? shortDay : undefined} fontSize={11} interval="preserveStartEnd" />
              <YAxis allowDecimals={false} fontSize={11} />
              <Tooltip />
              {series.length > 1 && <Legend wrapperStyle={{ fontSize: 12 }} formatter={value => <span className="text-foreground">{value}</span>} />}
              {series.map(s => (
                <Bar key={s.key} dataKey={s.key} name={s.name} fill={s.color} stackId="a" isAnimationActive={false} />
              ))}
            </BarChart>
          </ResponsiveContainer>
        </figure>
      </CardContent>
    </Card>
  )
}

const sum = (rows: DailyUsage['days'], key: 'questions' | 'good' | 'bad' | 'promptTokens' | 'completionTokens') => rows.reduce((n, r) => n + r[key], 0)

function Charts({ u, filtered }: { u: DailyUsage; filtered: boolean }) {
  const tokens = sum(u.days, 'promptTokens') + sum(u.days, 'completionTokens')
  const queries = u.days.reduce((n, d) => n + (d.datastoreQueries ?? 0), 0)
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <ChartCard title="Questions" description="Questions asked per day:" data={u.days} x="day" series={[{ key: 'questions', name: 'Questions', color: COLORS.questions }]} total={`${sum(u.days, 'questions')} in 30 days`} />
      <ChartCard
        title="Answers voted up and down"
        description="Votes per day:"
        data={u.days}
        x="day"
        series={[{ key: 'good', name: 'Up', color: COLORS.good }, { key: 'bad', name: 'Down', color: COLORS.bad }]}
        total={`${sum(u.days, 'good')} up, ${sum(u.days, 'bad')} down`}
      />
      <ChartCard
        title="Model tokens"
        description="Prompt and completion tokens per day:"
        data={u.days}
        x="day"
        series={[{ key: 'promptTokens', name: 'Prompt', color: COLORS.prompt }, { key: 'completionTokens', name: 'Completion', color: COLORS.completion }]}
        total={`${tokens.toLocaleString()} in 30 days`}
      />
      {filtered ? (
        <Card className="min-w-0 gap-3">
          <CardHeader>
            <CardTitle className="text-sm font-medium">Datastore queries</CardTitle>
            <CardDescription>Datastore queries belong to no agent or channel: clear the filters to see them.</CardDescription>
          </CardHeader>
        </Card>
      ) : (
        <ChartCard title="Datastore queries" description="API searches of your datastores per day:" data={u.days} x="day" series={[{ key: 'datastoreQueries', name: 'Queries', color: COLORS.queries }]} total={`${queries} in 30 days`} />
      )}
      <ChartCard title="Per agent" description="Questions per agent over 30 days:" data={u.byAgent} x="agentName" series={[{ key: 'questions', name: 'Questions', color: COLORS.questions }]} total={`${u.byAgent.length} agent${u.byAgent.length === 1 ? '' : 's'}`} />
      <ChartCard
        title="Per channel"
        description="Questions per channel over 30 days:"
        data={u.byChannel.map(c => ({ ...c, label: CHANNEL_LABELS[c.channel as keyof typeof CHANNEL_LABELS] ?? c.channel }))}
        x="label"
        series={[{ key: 'questions', name: 'Questions', color: COLORS.questions }]}
        total={`${u.byChannel.length} channel${u.byChannel.length === 1 ? '' : 's'}`}
      />
    </div>
  )
}

/** Usage over the last 30 days (UTC days), for the organization or one agent and/or channel. */
export function UsageCharts() {
  const [filters, setFilters] = React.useState<{ agentId?: string; channel?: ConversationChannel }>({})
  const agents = useQuery({ queryKey: ['agents'], queryFn: listAgents })
  const query = useQuery({ queryKey: dailyUsageQueryKey(filters), queryFn: () => getDailyUsage(filters), refetchInterval: 60_000 })
  useErrorToast(query.error, 'daily-usage-error', 'usage over time')
  return (
    <section className="grid gap-4" aria-labelledby="usage-over-time">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="usage-over-time" className="text-lg font-semibold">
          Last 30 days
        </h2>
        <div className="grid grid-cols-2 gap-3">
          <FilterSelect id="usage-agent" label="Agent" value={filters.agentId ?? ''} onChange={v => setFilters(f => ({ ...f, agentId: v || undefined }))} options={[{ value: '', label: 'All agents' }, ...(agents.data ?? []).map(a => ({ value: a.id, label: a.name }))]} />
          <FilterSelect id="usage-channel" label="Channel" value={filters.channel ?? ''} onChange={v => setFilters(f => ({ ...f, channel: (v || undefined) as ConversationChannel | undefined }))} options={[{ value: '', label: 'All channels' }, ...Object.entries(CHANNEL_LABELS).map(([value, label]) => ({ value, label }))]} />
        </div>
      </div>
      {loadFailed(query) ? <LoadError query={query} /> : query.data ? <Charts u={query.data} filtered={Boolean(filters.agentId || filters.channel)} /> : <Skeleton className="h-64 rounded-xl" />}
    </section>
  )
}
