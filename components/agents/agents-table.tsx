'use client'

import Link from 'next/link'
import { Bot, MessagesSquare, Plus } from 'lucide-react'
import { useDatastores } from '@/components/datastores/datastores-table'
import { EmptyState } from '@/components/layout/empty-state'
import { useErrorToast } from '@/components/layout/query-states'
import { QueryTable } from '@/components/layout/query-table'
import { Timestamp } from '@/components/layout/timestamp'
import { Can, useCan } from '@/components/layout/member-role'
import { VisibilityBadge } from '@/components/layout/visibility-badge'
import { Button } from '@/components/ui/button'
import { TableCell, TableRow } from '@/components/ui/table'
import { DeleteAgentButton } from './delete-agent-button'
import { ModelName } from './model-id-hint'
import { useAgents } from './use-agents'

/** The "New agent" button, for the roles that may create one (agents:write). */
export function NewAgentButton() {
  if (!useCan('agents:write')) return null
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

  return (
    <QueryTable
      label="Agents"
      query={query}
      isEmpty={query.data?.length === 0}
      empty={
        <EmptyState icon={Bot} title="No agents yet" action={<NewAgentButton />}>
          An agent answers questions with a model, from the datastores you connect to it. Create one, try it in the playground,
          then call it through the API or embed it in your site.
        </EmptyState>
      }
      columns={[
        { label: 'Name', className: 'pl-4' },
        { label: 'Model', className: 'hidden sm:table-cell' },
        { label: 'Visibility' },
        { label: 'Datastores', className: 'hidden md:table-cell' },
        { label: 'Updated', className: 'hidden lg:table-cell' },
        { label: 'Actions', className: 'pr-3 text-right', srOnly: true },
      ]}
    >
      {query.data?.map(agent => {
        const stores = agent.datastoreIds.map(id => names.get(id) ?? (datastores.isPending ? '…' : 'deleted datastore'))
        return (
          <TableRow key={agent.id} data-testid="agent-row">
            <TableCell className="max-w-[18rem] py-3 pl-4 whitespace-normal">
              <Link href={`/agents/${agent.id}`} className="font-medium break-words underline-offset-4 outline-none hover:underline focus-visible:underline">
                {agent.name}
              </Link>
              {agent.description && <div className="line-clamp-2 text-xs text-muted-foreground">{agent.description}</div>}
            </TableCell>
            <TableCell className="hidden text-muted-foreground sm:table-cell"><ModelName modelName={agent.modelName} />
            </TableCell>
            <TableCell>
              <VisibilityBadge visibility={agent.visibility} />
            </TableCell>
            <TableCell className="hidden max-w-[16rem] whitespace-normal text-muted-foreground md:table-cell" data-testid="agent-datastores">
              {stores.length === 0 ? 'None' : stores.length <= 2 ? stores.join(', ') : `${stores.slice(0, 2).join(', ')} +${stores.length - 2}`}
            </TableCell>
            <TableCell className="hidden text-muted-foreground lg:table-cell">
              <Timestamp iso={agent.updatedAt} />
            </TableCell>
            <TableCell className="pr-2 text-right sm:pr-3">
              <div className="flex justify-end gap-0.5">
                <Button asChild variant="ghost" size="icon" className="size-8" title="Chat in the playground">
                  <Link href={`/playground?agent=${agent.id}`} aria-label={`Chat with ${agent.name}`}>
                    <MessagesSquare aria-hidden />
                  </Link>
                </Button>
                <Can scope="agents:write">
                  <DeleteAgentButton agent={agent} compact />
                </Can>
              </div>
            </TableCell>
          </TableRow>
        )
      })}
    </QueryTable>
  )
}
