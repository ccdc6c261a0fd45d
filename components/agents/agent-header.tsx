'use client'

import Link from 'next/link'
import { usePathname } from 'next/navigation'
import { ArrowLeft, BotOff, MessagesSquare } from 'lucide-react'
import { ApiError } from '@/components/api-client'
import { EmptyState } from '@/components/layout/empty-state'
import { LoadError, useErrorToast } from '@/components/layout/query-states'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { cn } from '@/lib/utils'
import { DeleteAgentButton } from './delete-agent-button'
import { MODEL_LABELS } from './types'
import { useAgent } from './use-agents'

/** The title, actions and section links of an agent's pages; renders its sections only once the agent is known. */
export function AgentFrame({ id, children }: { id: string; children: React.ReactNode }) {
  const query = useAgent(id)
  const pathname = usePathname()
  const notFound = query.error instanceof ApiError && query.error.status === 404
  useErrorToast(notFound ? null : query.error, `agent-error-${id}`, 'the agent')

  const back = (
    <Button asChild variant="ghost" size="sm" className="-ml-2 mb-2 w-fit text-muted-foreground">
      <Link href="/agents">
        <ArrowLeft aria-hidden />
        Agents
      </Link>
    </Button>
  )
  if (notFound) {
    return (
      <>
        {back}
        <EmptyState icon={BotOff} title="This agent does not exist">
          It may have been deleted, or the link is wrong.
        </EmptyState>
      </>
    )
  }
  if (query.isError && !query.data) {
    return (
      <>
        {back}
        <LoadError error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />
      </>
    )
  }

  const agent = query.data
  const sections = [
    { href: `/agents/${id}`, label: 'Settings' },
    { href: `/agents/${id}/conversations`, label: 'Conversations' },
  ]
  return (
    <>
      {back}
      <div className="mb-4 flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid min-w-0 gap-2">
          {agent ? <h1 className="text-2xl font-semibold tracking-tight break-words">{agent.name}</h1> : <Skeleton className="h-8 w-56" />}
          {agent && (
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant={agent.visibility === 'public' ? 'secondary' : 'outline'} className="capitalize">
                {agent.visibility}
              </Badge>
              <Badge variant="outline">{MODEL_LABELS[agent.modelName] ?? agent.modelName}</Badge>
              <span className="text-sm text-muted-foreground">
                {agent.datastoreIds.length} datastore{agent.datastoreIds.length === 1 ? '' : 's'}
              </span>
            </div>
          )}
        </div>
        {agent && (
          <div className="flex shrink-0 gap-2">
            <Button asChild variant="outline">
              <Link href={`/playground?agent=${agent.id}`}>
                <MessagesSquare aria-hidden />
                Chat
              </Link>
            </Button>
            <DeleteAgentButton agent={agent} redirectTo="/agents" />
          </div>
        )}
      </div>
      <nav aria-label="Agent sections" className="mb-6 flex gap-1 border-b">
        {sections.map(s => {
          const active = pathname === s.href
          return (
            <Link
              key={s.href}
              href={s.href}
              aria-current={active ? 'page' : undefined}
              className={cn(
                '-mb-px border-b-2 px-3 py-2 text-sm font-medium outline-none transition-colors focus-visible:ring-[3px] focus-visible:ring-ring/50',
                active ? 'border-primary text-foreground' : 'border-transparent text-muted-foreground hover:text-foreground',
              )}
            >
              {s.label}
            </Link>
          )
        })}
      </nav>
      {agent ? children : <Skeleton className="h-64 w-full rounded-xl" />}
    </>
  )
}
