'use client'

import { useQuery } from '@tanstack/react-query'
import { Plug, Trash2 } from 'lucide-react'
import { ConfirmedRemoval } from '@/components/layout/confirm-action-button'
import { EmptyState } from '@/components/layout/empty-state'
import { PageHeader } from '@/components/layout/page-header'
import { useErrorToast } from '@/components/layout/query-states'
import { QueryTable } from '@/components/layout/query-table'
import { Timestamp } from '@/components/layout/timestamp'
import { Button } from '@/components/ui/button'
import { TableCell, TableRow } from '@/components/ui/table'
import { connectionsQueryKey, deleteConnection, listConnections, type Connection } from './connections-api'
import { CreateConnectionDialog } from './create-connection-dialog'

function DeleteConnectionButton({ connection }: { connection: Connection }) {
  return (
    <ConfirmedRemoval
      remove={() => deleteConnection(connection.id)}
      done="Connection deleted"
      failed="Could not delete the connection"
      refresh={connectionsQueryKey}
      trigger={
        <Button variant="ghost" size="sm" aria-label={`Delete the connection ${connection.name}`} className="text-destructive hover:text-destructive">
          <Trash2 aria-hidden />
        </Button>
      }
      title="Delete this connection?"
      description="Content added through it keeps what it holds, and fails at its next sync until it is added again with another connection."
      confirmLabel="Delete"
    />
  )
}

/** The organization's connections to other services (Notion): names and the start of each token, never the token. */
export function ConnectionsView() {
  const query = useQuery({ queryKey: connectionsQueryKey, queryFn: listConnections })
  useErrorToast(query.error, 'connections-error', 'connections')
  return (
    <>
      <PageHeader
        title="Connections"
        description="Access to your other tools, for the content agents read from them. Tokens are stored encrypted and never shown again."
        action={<CreateConnectionDialog />}
      />
      <QueryTable
        label="Connections"
        query={query}
        isEmpty={query.data?.length === 0}
        empty={
          <EmptyState icon={Plug} title="No connections yet">
            Connect a Notion integration with the <span className="font-medium text-foreground">Connect Notion</span> button, then add its pages to a
            datastore.
          </EmptyState>
        }
        columns={[
          { label: 'Name', className: 'pl-4' },
          { label: 'Service' },
          { label: 'Token', className: 'hidden sm:table-cell' },
          { label: 'Added', className: 'hidden md:table-cell' },
          { label: 'Actions', className: 'pr-2 text-right sm:pr-4', srOnly: true },
        ]}
      >
        {query.data?.map(c => (
          <TableRow key={c.id} data-testid="connection-row">
            <TableCell className="pl-4 font-medium">{c.name}</TableCell>
            <TableCell className="capitalize">{c.provider}</TableCell>
            <TableCell className="hidden sm:table-cell">
              <code className="font-mono text-xs">{c.secretPrefix}</code>
            </TableCell>
            <TableCell className="hidden md:table-cell">
              <Timestamp iso={c.createdAt} />
            </TableCell>
            <TableCell className="pr-2 text-right sm:pr-4">
              <DeleteConnectionButton connection={c} />
            </TableCell>
          </TableRow>
        ))}
      </QueryTable>
    </>
  )
}
