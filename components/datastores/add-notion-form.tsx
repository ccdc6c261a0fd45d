'use client'

import * as React from 'react'
import Link from 'next/link'
import { useQuery } from '@tanstack/react-query'
import { connectionsQueryKey, listConnections } from '@/components/connections/connections-api'
import { FormAlert, FormField } from '@/components/layout/form-field'
import { Input } from '@/components/ui/input'
import type { RefreshInterval } from '@/lib/domain/refresh'
import { AddForm, useAddContent } from './add-form'
import { createWebDatasource } from './datastores-api'
import { notionIdOf } from './notion-id'
import { RefreshSelect } from './refresh-select'

const SELECT = 'h-9 rounded-md border border-input bg-transparent px-2 text-sm shadow-xs outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50'

/** A Notion page (with its sub-pages and databases) or a database, through one of the organization's connections. */
export function NotionForm({ datastoreId }: { datastoreId: string }) {
  const connections = useQuery({ queryKey: connectionsQueryKey, queryFn: listConnections })
  const [connectionId, setConnectionId] = React.useState('')
  const [address, setAddress] = React.useState('')
  const [rootType, setRootType] = React.useState<'page' | 'database'>('page')
  const [name, setName] = React.useState('')
  const [refresh, setRefresh] = React.useState<RefreshInterval | null>(null)
  const chosen = connectionId || connections.data?.[0]?.id || ''
  const rootId = notionIdOf(address)
  const send = () =>
    createWebDatasource({ datastoreId, type: 'notion', name: name.trim() || undefined, config: { connectionId: chosen, rootId, rootType }, refreshInterval: refresh })
  const { problem, create, submit } = useAddContent(datastoreId, 'Notion content', send, () => {
    setAddress('')
    setName('')
  })
  if (!connections.data) return <p className="text-sm text-muted-foreground">{connections.isError ? 'The connections could not be loaded.' : 'Loading connections…'}</p>
  if (connections.data.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        No Notion connection yet: <Link href="/connections" className="font-medium text-foreground underline underline-offset-4">connect Notion</Link> first,
        then come back here.
      </p>
    )
  }
  const check = () => (!chosen ? 'Choose a connection' : rootId ? null : 'Paste the address of a Notion page or database (it ends with 32 letters and digits)')
  return (
    <AddForm onSubmit={() => submit(check())} create={create} errorId="notion-error" submitLabel="Add from Notion">
      <div className="grid gap-2 sm:grid-cols-2 sm:gap-4">
        <FormField id="notion-connection" label="Connection">
          <select id="notion-connection" value={chosen} onChange={e => setConnectionId(e.target.value)} className={SELECT}>
            {connections.data?.map(c => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </FormField>
        <FormField id="notion-root-type" label="It is">
          <select id="notion-root-type" value={rootType} onChange={e => setRootType(e.target.value as 'page' | 'database')} className={SELECT}>
            <option value="page">A page, with its sub-pages and databases</option>
            <option value="database">A database: each row is a page</option>
          </select>
        </FormField>
      </div>
      <FormField id="notion-address" label="Page or database address">
        <Input
          id="notion-address"
          value={address}
          onChange={e => setAddress(e.target.value)}
          placeholder="https://www.notion.so/Help-center-598337872cf94fdf8782e53db20768a5"
          aria-invalid={!!problem || undefined}
          aria-describedby={problem ? 'notion-address-error' : 'notion-address-hint'}
          autoComplete="off"
        />
        {problem ? (
          <FormAlert id="notion-address-error" message={problem} />
        ) : (
          <p id="notion-address-hint" className="text-xs text-muted-foreground">
            Share it with the integration in Notion (⋯ → Connections). Unchanged pages cost nothing on a refresh.
          </p>
        )}
      </FormField>
      <div className="grid gap-2 sm:grid-cols-2 sm:gap-4">
        <FormField id="notion-name" label="Name" optional>
          <Input id="notion-name" value={name} onChange={e => setName(e.target.value)} maxLength={200} placeholder="Defaults to the page's id" />
        </FormField>
        <FormField id="notion-refresh" label="Refresh">
          <RefreshSelect id="notion-refresh" value={refresh} onChange={setRefresh} inherited className="w-fit" />
        </FormField>
      </div>
    </AddForm>
  )
}
