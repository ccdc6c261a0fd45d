'use client'

import Link from 'next/link'
import { usePathname } from 'next/navigation'
import { BotOff, MessagesSquare } from 'lucide-react'
import { countOf } from '@/components/format'
import { DetailFrame, DetailTitle } from '@/components/layout/detail-frame'
import { VisibilityBadge } from '@/components/layout/visibility-badge'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { cn } from '@/lib/utils'
import { DeleteAgentButton } from './delete-agent-button'
import { ModelName } from './model-id-hint'
import { useAgent } from './use-agents'
import { Can } from '@/components/layout/member-role'

/** The title, actions and section links of an agent's pages; renders its sections only once the agent is known. */
export function AgentFrame({ id, children }: { id: string; children: React.ReactNode }) {
  const query = useAgent(id)
  const pathname = usePathname()
  const agent = query.data
  const sections = [
    { href: `/agents/${id}`, label: 'Settings' },
    { href: `/agents/${id}/conversations`, label: 'Conversations' },
  ]
  return (
    <DetailFrame
      query={query}
      what="the agent"
      toastId={`agent-error-${id}`}
      back={{ href: '/agents', label: 'Agents' }}
      notFound={{ icon: BotOff, title: 'This agent does not exist' }}
    >
      <div className="mb-4 flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid min-w-0 gap-2">
          <DetailTitle title={agent?.name} skeletonClassName="h-8 w-56" />
          {agent && (
            <div className="flex flex-wrap items-center gap-2">
              <VisibilityBadge visibility={agent.visibility} />
              <Badge variant="outline">
                <ModelName modelName={agent.modelName} />
              </Badge>
              <span className="text-sm text-muted-foreground">{countOf(agent.datastoreIds.length, 'datastore')}</span>
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
            <Can scope="agents:write">
              <DeleteAgentButton agent={agent} redirectTo="/agents" />
            </Can>
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
    </DetailFrame>
  )
}
