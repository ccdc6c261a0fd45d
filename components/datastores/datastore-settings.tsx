'use client'

import * as React from 'react'
import { useRouter } from 'next/navigation'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Trash2 } from 'lucide-react'
import { toast } from 'sonner'
import { errorMessage } from '@/components/api-client'
import { ConfirmActionButton } from '@/components/layout/confirm-action-button'
import { FormAlert, FormField } from '@/components/layout/form-field'
import { PendingButton } from '@/components/layout/pending-button'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import { CHUNK_OVERLAP_RANGE, CHUNK_SIZE_RANGE } from '@/lib/domain/limits'
import type { SearchLanguage } from '@/lib/domain/languages'
import type { RefreshInterval } from '@/lib/domain/refresh'
import { deleteDatastore, updateDatastore, type DatastoreFields } from './datastores-api'
import { LanguageSelect } from './language-select'
import { RefreshSelect } from './refresh-select'
import { datastoreQueryKey, datastoresQueryKey, type Datastore } from './types'

/** A whole number within `range`. */
const inRange = (n: number, range: { min: number; max: number }) => Number.isInteger(n) && n >= range.min && n <= range.max

function DeleteDatastore({ datastore }: { datastore: Datastore }) {
  const [open, setOpen] = React.useState(false)
  const router = useRouter()
  const queryClient = useQueryClient()
  const remove = useMutation({
    mutationFn: () => deleteDatastore(datastore.id),
    onSuccess: () => {
      toast.success(`Deleted “${datastore.name}”`)
      queryClient.removeQueries({ queryKey: datastoreQueryKey(datastore.id) })
      void queryClient.invalidateQueries({ queryKey: datastoresQueryKey, exact: true })
      router.push('/datastores')
    },
    onError: error => toast.error('Could not delete the datastore', { description: errorMessage(error) }),
  })
  return (
    <ConfirmActionButton
      open={open}
      onOpenChange={setOpen}
      action={remove}
      trigger={
        <Button variant="destructive">
          <Trash2 aria-hidden />
          Delete datastore
        </Button>
      }
      title={`Delete “${datastore.name}”?`}
      description={`Its ${datastore.nbDatasources ?? 0} datasources and every chunk go with it, and agents that read it stop finding them. This cannot be undone.`}
      confirmLabel="Delete"
    />
  )
}

/** Why these settings cannot be saved, or null when they can. */
function settingsProblem(name: string, size: number, overlap: number): string | null {
  if (!name.trim()) return 'Give the datastore a name'
  if (!inRange(size, CHUNK_SIZE_RANGE)) return `Chunk size must be a whole number from ${CHUNK_SIZE_RANGE.min} to ${CHUNK_SIZE_RANGE.max} tokens`
  if (!inRange(overlap, CHUNK_OVERLAP_RANGE)) return `Overlap must be a whole number from ${CHUNK_OVERLAP_RANGE.min} to ${CHUNK_OVERLAP_RANGE.max} tokens`
  if (overlap >= size) return 'Overlap must be smaller than the chunk size'
  return null
}

/** Saving the datastore's settings: the saved datastore replaces the cached one, and the list is asked for again. */
function useSaveDatastore(datastoreId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: DatastoreFields) => updateDatastore(datastoreId, body),
    onSuccess: updated => {
      queryClient.setQueryData(datastoreQueryKey(datastoreId), updated)
      void queryClient.invalidateQueries({ queryKey: datastoresQueryKey, exact: true })
      toast.success('Saved')
    },
  })
}

function DatastoreForm({ datastore }: { datastore: Datastore }) {
  const [name, setName] = React.useState(datastore.name)
  const [description, setDescription] = React.useState(datastore.description ?? '')
  const [chunkSize, setChunkSize] = React.useState(String(datastore.chunkSize))
  const [chunkOverlap, setChunkOverlap] = React.useState(String(datastore.chunkOverlap))
  const [refresh, setRefresh] = React.useState<RefreshInterval>(datastore.refreshInterval ?? 'off')
  const [language, setLanguage] = React.useState<SearchLanguage>(datastore.language ?? 'english')
  const [problem, setProblem] = React.useState<string | null>(null)
  const save = useSaveDatastore(datastore.id)

  function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    const size = Number(chunkSize)
    const overlap = Number(chunkOverlap)
    const found = settingsProblem(name, size, overlap)
    setProblem(found)
    if (!found) save.mutate({ name: name.trim(), description: description.trim() || null, chunkSize: size, chunkOverlap: overlap, refreshInterval: refresh, language })
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-6">
      <CardHeader>
        <CardTitle>Datastore</CardTitle>
        <CardDescription>Chunking applies to content synced after a change: re-sync a datasource to apply it to it.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <FormField id="ds-settings-name" label="Name">
          <Input id="ds-settings-name" value={name} onChange={e => setName(e.target.value)} maxLength={200} />
        </FormField>
        <FormField id="ds-settings-description" label="Description">
          <Textarea id="ds-settings-description" value={description} onChange={e => setDescription(e.target.value)} rows={3} maxLength={5000} />
        </FormField>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id="ds-settings-chunk-size" label="Chunk size (tokens)">
            <Input id="ds-settings-chunk-size" type="number" min={CHUNK_SIZE_RANGE.min} max={CHUNK_SIZE_RANGE.max} value={chunkSize} onChange={e => setChunkSize(e.target.value)} />
          </FormField>
          <FormField id="ds-settings-chunk-overlap" label="Overlap (tokens)">
            <Input id="ds-settings-chunk-overlap" type="number" min={CHUNK_OVERLAP_RANGE.min} max={CHUNK_OVERLAP_RANGE.max} value={chunkOverlap} onChange={e => setChunkOverlap(e.target.value)} />
          </FormField>
        </div>
        <FormField id="ds-settings-refresh" label="Refresh web pages and sites">
          <RefreshSelect id="ds-settings-refresh" value={refresh} onChange={v => setRefresh(v ?? 'off')} className="w-fit" />
          <p className="text-xs text-muted-foreground">The schedule of its web sources that have none of their own. Unchanged pages cost no embeddings.</p>
        </FormField>
        <FormField id="ds-settings-language" label="Language">
          <LanguageSelect id="ds-settings-language" value={language} onChange={setLanguage} className="w-fit" />
          <p className="text-xs text-muted-foreground">How keyword search stems words and skips stop words. A change indexes the datastore&apos;s content again. Chinese, Japanese and Korean are searchable in any language.</p>
        </FormField>
        <FormAlert message={problem ?? (save.isError ? errorMessage(save.error) : null)} />
      </CardContent>
      <CardFooter>
        <PendingButton type="submit" pending={save.isPending}>
          Save changes
        </PendingButton>
      </CardFooter>
    </form>
  )
}

export function DatastoreSettings({ datastore }: { datastore: Datastore }) {
  return (
    <div className="grid gap-6">
      <Card>
        <DatastoreForm datastore={datastore} />
      </Card>
      <Card className="border-destructive/30">
        <CardHeader>
          <CardTitle>Delete this datastore</CardTitle>
          <CardDescription>Removes every datasource and chunk in it. Agents keep working, without this knowledge.</CardDescription>
        </CardHeader>
        <CardFooter>
          <DeleteDatastore datastore={datastore} />
        </CardFooter>
      </Card>
    </div>
  )
}
