'use client'

import Link from 'next/link'
import { Bot, MessagesSquare, Plus } from 'lucide-react'
import { formatDate, formatDateTime } from '@/components/format'
import { useDatastores } from '@/components/datastores/datastores-table'
import { EmptyState } from '@/components/layout/empty-state'
import { LoadError, SkeletonRows, useErrorToast } from '@/components/layout/query-states'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table'
import { DeleteAgentButton } from './delete-agent-button'
import { MODEL_LABELS } from './types'
import { useAgents } from './use-agents'

export function NewAgentButton() {
  return (
    <Button asChild>
      <Link href="/agents/new">
        <Plus aria-hidden />
        New agent
      </Link>
    </Button>
  )
}

export function AgentsTable() {
  const query = useAgents()
  const datastores = useDatastores()
  useErrorToast(query.error, 'agents-error', 'agents')
  const names = new Map((datastores.data ?? []).map(d => [d.id, d.name]))

  if (query.isError && !query.data) {
    return <LoadError error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />
  }
  if (query.data && query.data.length === 0) {
    return (
      <EmptyState icon={Bot} title="No agents yet" action={<NewAgentButton />}>
        An agent answers questions with a model, from the datastores you connect to it. Create one, try it in the playground,
        then call it through the API or embed it in your site.
      </EmptyState>
    )
  }

  return (
    <div className="rounded-xl border">
      <Table aria-label="Agents" aria-busy={query.isPending}>
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead className="pl-4">Name</TableHead>
            <TableHead className="hidden sm:table-cell">Model</TableHead>
            <TableHead>Visibility</TableHead>
            <TableHead className="hidden md:table-cell">Datastores</TableHead>
            <TableHead className="hidden lg:table-cell">Updated</TableHead>
            <TableHead className="pr-3 text-right">
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {query.isPending ? (
            <SkeletonRows columns={6} />
          ) : (
            query.data?.map(agent => {
              const stores = agent.datastoreIds.map(id => names.get(id) ?? (datastores.isPending ? '…' : 'deleted datastore'))
              return (
                <TableRow key={agent.id} data-testid="agent-row">
                  <TableCell className="max-w-[18rem] py-3 pl-4 whitespace-normal">
                    <Link href={`/agents/${agent.id}`} className="font-medium break-words underline-offset-4 outline-none hover:underline focus-visible:underline">
                      {agent.name}
                    </Link>
                    {agent.description && <div className="line-clamp-2 text-xs text-muted-foreground">{agent.description}</div>}
                  </TableCell>
                  <TableCell className="hidden text-muted-foreground sm:table-cell">{MODEL_LABELS[agent.modelName] ?? agent.modelName}</TableCell>
                  <TableCell>
                    <Badge variant={agent.visibility === 'public' ? 'secondary' : 'outline'} className="capitalize">
                      {agent.visibility}
                    </Badge>
                  </TableCell>
                  <TableCell className="hidden max-w-[16rem] whitespace-normal text-muted-foreground md:table-cell" data-testid="agent-datastores">
                    {stores.length === 0 ? 'None' : stores.length <= 2 ? stores.join(', ') : `${stores.slice(0, 2).join(', ')} +${stores.length - 2}`}
                  </TableCell>
                  <TableCell className="hidden text-muted-foreground lg:table-cell">
                    <time dateTime={agent.updatedAt} title={formatDateTime(agent.updatedAt)}>
                      {formatDate(agent.updatedAt)}
                    </time>
                  </TableCell>
                  <TableCell className="pr-2 text-right sm:pr-3">
                    <div className="flex justify-end gap-0.5">
                      <Button asChild variant="ghost" size="icon" className="size-8" title="Chat in the playground">
                        <Link href={`/playground?agent=${agent.id}`} aria-label={`Chat with ${agent.name}`}>
                          <MessagesSquare aria-hidden />
                        </Link>
                      </Button>
                      <DeleteAgentButton agent={agent} compact />
                    </div>
                  </TableCell>
                </TableRow>
              )
            })
          )}
        </TableBody>
      </Table>
    </div>
  )
}
