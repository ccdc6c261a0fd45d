'use client'

import * as React from 'react'
import { useRouter } from 'next/navigation'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ArrowRightLeft } from 'lucide-react'
import { toast } from 'sonner'
import { errorMessage } from '@/components/api-client'
import { MODEL_LABELS } from '@/components/agents/types'
import { LoadError, loadFailed } from '@/components/layout/query-states'
import { PendingButton } from '@/components/layout/pending-button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Skeleton } from '@/components/ui/skeleton'
import { AGENT_MODEL_NAMES, type AgentModelName } from '@/lib/domain/models'
import { getModelMap, getServerModels, modelMapQueryKey, saveModelMap, serverModelsQueryKey, type ModelMap } from './models-api'

type Draft = Record<AgentModelName, string>

const draftOf = (map: ModelMap): Draft => Object.fromEntries(AGENT_MODEL_NAMES.map(n => [n, map.organization[n] ?? ''])) as Draft

function MapRow({ name, value, fallback, onChange }: { name: AgentModelName; value: string; fallback: string; onChange: (v: string) => void }) {
  const id = `model-map-${name}`
  return (
    <div className="grid gap-1.5 sm:grid-cols-[12rem_1fr] sm:items-center">
      <Label htmlFor={id}>
        {MODEL_LABELS[name]} <span className="font-mono text-xs text-muted-foreground">({name})</span>
      </Label>
      <Input id={id} list="server-model-ids" value={value} placeholder={`${fallback} (from the environment)`} onChange={e => onChange(e.target.value)} autoComplete="off" />
    </div>
  )
}

/** The organization's map from the API's modelName values to the server's model ids; empty follows MODEL_MAP. */
export function ModelMapEditor() {
  const client = useQueryClient()
  const router = useRouter()
  const query = useQuery({ queryKey: modelMapQueryKey, queryFn: getModelMap })
  const serverModels = useQuery({ queryKey: serverModelsQueryKey, queryFn: getServerModels, retry: false })
  const [draft, setDraft] = React.useState<Draft | null>(null)
  React.useEffect(() => {
    if (query.data && !draft) setDraft(draftOf(query.data))
  }, [query.data, draft])
  const save = useMutation({
    mutationFn: () => saveModelMap(Object.fromEntries(AGENT_MODEL_NAMES.map(n => [n, draft?.[n].trim() || null]))),
    onSuccess: saved => {
      client.setQueryData(modelMapQueryKey, saved)
      setDraft(draftOf(saved))
      toast.success('Model map saved', { description: 'The next answers use it.' })
      // the layout tells every page (the agent form's choices) what each name is sent as
      router.refresh()
    },
    onError: error => toast.error('Could not save the model map', { description: errorMessage(error) }),
  })
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <ArrowRightLeft className="size-4 text-muted-foreground" aria-hidden /> Model map
        </CardTitle>
        <CardDescription>The model id each model name of the API is sent as, for this organization. Empty: MODEL_MAP, else the default.</CardDescription>
      </CardHeader>
      <CardContent>
        {query.isPending && <Skeleton className="h-40 w-full" />}
        {loadFailed(query) && <LoadError query={query} />}
        {query.data?.problem && <p className="mb-3 text-sm text-destructive">{query.data.problem}</p>}
        {draft && query.data && (
          <form className="grid gap-3" onSubmit={e => (e.preventDefault(), save.mutate())} aria-label="Model map">
            <datalist id="server-model-ids">{serverModels.data?.models.map(m => <option key={m.id} value={m.id} />)}</datalist>
            {AGENT_MODEL_NAMES.map(name => (
              <MapRow key={name} name={name} value={draft[name]} fallback={query.data.environment?.[name] ?? '?'} onChange={v => setDraft({ ...draft, [name]: v })} />
            ))}
            <div>
              <PendingButton type="submit" pending={save.isPending}>
                Save map
              </PendingButton>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  )
}
