'use client'

import { useQuery } from '@tanstack/react-query'
import { KeyRound } from 'lucide-react'
import { EmptyState } from '@/components/layout/empty-state'
import { PageHeader } from '@/components/layout/page-header'
import { useErrorToast } from '@/components/layout/query-states'
import { QueryTable } from '@/components/layout/query-table'
import { Timestamp } from '@/components/layout/timestamp'
import { Badge } from '@/components/ui/badge'
import { TableCell, TableRow } from '@/components/ui/table'
import { listApiKeys } from './api-keys-api'
import { CreateApiKeyDialog } from './create-api-key-dialog'
import { RevokeApiKeyButton } from './revoke-api-key-button'
import { apiKeysQueryKey, type ApiKey } from './types'

/** What a key may do, in a few words: "Full access", or its scopes, lists and expiry. */
function accessOf(key: ApiKey): string {
  const parts = [key.scopes.length ? key.scopes.join(', ') : 'Full access']
  if (key.datastoreIds.length) parts.push(`${key.datastoreIds.length} datastore${key.datastoreIds.length === 1 ? '' : 's'} only`)
  if (key.agentIds.length) parts.push(`${key.agentIds.length} agent${key.agentIds.length === 1 ? '' : 's'} only`)
  if (key.expiresAt) parts.push(`expires ${key.expiresAt.slice(0, 10)}`)
  return parts.join(' · ')
}

export function ApiKeysView() {
  const query = useQuery({ queryKey: apiKeysQueryKey, queryFn: listApiKeys })
  useErrorToast(query.error, 'api-keys-error', 'API keys')

  return (
    <>
      <PageHeader
        title="API keys"
        description={
          <>
            Keys let programs call the API on behalf of your organization: send one as{' '}
            <code className="rounded bg-muted px-1 py-0.5 font-mono text-xs whitespace-nowrap text-foreground">Authorization: Bearer &lt;key&gt;</code>.
          </>
        }
        action={<CreateApiKeyDialog />}
      />
      <QueryTable
        label="API keys"
        query={query}
        isEmpty={query.data?.length === 0}
        empty={
          <EmptyState icon={KeyRound} title="No API keys yet">
            Create a key with the <span className="font-medium text-foreground">Create API key</span> button to call the API
            from your own code, scripts or integrations. Each key can be revoked on its own at any time.
          </EmptyState>
        }
        columns={[
          { label: 'Name', className: 'pl-4' },
          { label: 'Key' },
          { label: 'Access', className: 'hidden md:table-cell' },
          { label: 'Created', className: 'hidden sm:table-cell' },
          { label: 'Last used' },
          { label: 'Actions', className: 'pr-2 text-right sm:pr-4', srOnly: true },
        ]}
      >
        {query.data?.map(key => (
          <TableRow key={key.id} data-testid="api-key-row">
            <TableCell className="min-w-[6rem] pl-4 font-medium whitespace-normal break-words sm:max-w-[16rem]">{key.name}</TableCell>
            <TableCell>
              <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">{key.prefix}…</code>
            </TableCell>
            <TableCell className="hidden whitespace-normal text-muted-foreground md:table-cell" data-testid="api-key-access">
              {accessOf(key)}
            </TableCell>
            <TableCell className="hidden text-muted-foreground sm:table-cell">
              <Timestamp iso={key.createdAt} />
            </TableCell>
            <TableCell className="whitespace-normal text-muted-foreground sm:whitespace-nowrap">
              {key.lastUsedAt ? <Timestamp iso={key.lastUsedAt} relative /> : 'never'}
            </TableCell>
            <TableCell className="pr-2 text-right sm:pr-4">
              {key.revokedAt ? <Badge variant="outline">Revoked</Badge> : <RevokeApiKeyButton apiKey={key} />}
            </TableCell>
          </TableRow>
        ))}
      </QueryTable>
    </>
  )
}
