'use client'

import * as React from 'react'
import { useMutation, useQuery, type UseMutationResult } from '@tanstack/react-query'
import { AlertCircle, Info, Loader2, Search, SearchX } from 'lucide-react'
import { errorMessage } from '@/components/api-client'
import { EmptyState } from '@/components/layout/empty-state'
import { FormAlert, FormField, Optional } from '@/components/layout/form-field'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { DEFAULT_MIN_SCORE, MAX_TOP_K } from '@/lib/domain/limits'
import { MinScoreInput } from '@/components/agents/retrieval-settings'
import { DatasourceStatusBadge } from './datasource-status-badge'
import { FragmentCard } from './fragment-card'
import { listDatasources, queryDatastore, type DatastoreQuery } from './datastores-api'
import { datasourcesQueryKey, type Datasource, type Datastore, type Fragment } from './types'

function splitList(value: string): string[] {
  return value
    .split(/[,\n]/)
    .map(v => v.trim())
    .filter(Boolean)
}

/** The fields a search asks with, checked as the API would; `null` and a problem to show when one is wrong. */
function searchBody(fields: { query: string; topK: string; customIds: string; minScore: string; selected: string[] }): { body: DatastoreQuery; floor: number | null } | { problem: string } {
  const k = Number(fields.topK)
  if (!fields.query.trim()) return { problem: 'Type what you are looking for' }
  if (!Number.isInteger(k) || k < 1 || k > MAX_TOP_K) return { problem: `Results must be a whole number from 1 to ${MAX_TOP_K}` }
  const floor = fields.minScore.trim() === '' ? null : Number(fields.minScore)
  if (floor !== null && !(floor >= 0 && floor <= 1)) return { problem: 'Minimum relevance must be a number from 0 to 1, or empty' }
  const ids = splitList(fields.customIds)
  const { selected } = fields
  const filters = ids.length || selected.length ? { ...(ids.length ? { custom_ids: ids } : {}), ...(selected.length ? { datasource_ids: selected } : {}) } : undefined
  return { body: { query: fields.query, topK: k, filters, ...(floor !== null ? { minScore: floor } : {}) }, floor }
}

/** Query the datastore as an agent would, and see the fragments it would retrieve. */
export function SearchTester({ datastore }: { datastore: Datastore }) {
  const [query, setQuery] = React.useState('')
  const [topK, setTopK] = React.useState('5')
  const [customIds, setCustomIds] = React.useState('')
  const [minScore, setMinScore] = React.useState('')
  const [asked, setAsked] = React.useState<number | null>(null)
  const [selected, setSelected] = React.useState<string[]>([])
  const [problem, setProblem] = React.useState<string | null>(null)

  const sources = useQuery({
    queryKey: [...datasourcesQueryKey(datastore.id), 'for-filter'],
    queryFn: ({ signal }) => listDatasources(datastore.id, { limit: 200 }, signal),
  })

  const search = useMutation({ mutationFn: (body: DatastoreQuery) => queryDatastore(datastore.id, body) })

  function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    const checked = searchBody({ query, topK, customIds, minScore, selected })
    if ('problem' in checked) return setProblem(checked.problem)
    setProblem(null)
    setAsked(checked.floor)
    search.mutate(checked.body)
  }

  const datasourceList: Datasource[] = sources.data?.items ?? []

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
      <form onSubmit={onSubmit} className="grid h-fit gap-4 rounded-xl border p-4" noValidate aria-label="Search tester">
        <FormField id="search-query" label="Query">
          <Input
            id="search-query"
            value={query}
            onChange={e => setQuery(e.target.value)}
            placeholder="e.g. How long is the warranty?"
            autoComplete="off"
            aria-invalid={(!!problem && !query.trim()) || undefined}
          />
        </FormField>
        <RankingFields topK={topK} onTopK={setTopK} minScore={minScore} onMinScore={setMinScore} />
        <FormField
          id="search-custom-ids"
          label={
            <>
              Only documents with these ids <Optional>(comma-separated)</Optional>
            </>
          }
        >
          <Input
            id="search-custom-ids"
            value={customIds}
            onChange={e => setCustomIds(e.target.value)}
            placeholder="tenant-a, tenant-b"
            autoComplete="off"
            aria-describedby="search-custom-ids-hint"
          />
          <p id="search-custom-ids-hint" className="text-xs text-muted-foreground">
            The ids you gave documents when adding them (<code className="font-mono">custom_id</code>).
          </p>
        </FormField>
        <DatasourceFilter datasources={datasourceList} loading={sources.isPending} selected={selected} onChange={setSelected} />
        <FormAlert message={problem} />
        <Button type="submit" disabled={search.isPending}>
          {search.isPending ? <Loader2 className="animate-spin" aria-hidden /> : <Search aria-hidden />}
          Search
        </Button>
      </form>

      <SearchResults datastore={datastore} search={search} asked={asked} />
    </div>
  )
}

/** Only these datasources: a checkbox a datasource, its status when not synced. */
function DatasourceFilter({ datasources, loading, selected, onChange }: { datasources: Datasource[]; loading: boolean; selected: string[]; onChange: React.Dispatch<React.SetStateAction<string[]>> }) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">
        Only these datasources <Optional />
      </legend>
      {datasources.length === 0 ? (
        <p className="text-xs text-muted-foreground">{loading ? 'Loading…' : 'No datasources yet.'}</p>
      ) : (
        <div className="grid max-h-48 gap-1.5 overflow-y-auto rounded-md border p-2">
          {datasources.map(ds => {
            const id = `filter-ds-${ds.id}`
            return (
              <div key={ds.id} className="flex items-center gap-2">
                <Checkbox
                  id={id}
                  checked={selected.includes(ds.id)}
                  onCheckedChange={v => onChange(s => (v ? [...s, ds.id] : s.filter(x => x !== ds.id)))}
                />
                <Label htmlFor={id} className="min-w-0 flex-1 truncate font-normal" title={ds.name}>
                  {ds.name}
                </Label>
                {ds.status !== 'synched' && <DatasourceStatusBadge status={ds.status} />}
              </div>
            )
          })}
        </div>
      )}
    </fieldset>
  )
}

/** What the search found: the fragments best first, "nothing relevant" below the default floor, or why nothing. */
function SearchResults({ datastore, search, asked }: { datastore: Datastore; search: UseMutationResult<Fragment[], Error, DatastoreQuery>; asked: number | null }) {
  return (
    <section aria-label="Search results" aria-live="polite" className="grid h-fit gap-3">
      {datastore.searchMode === 'fulltext' && (
        <p className="flex items-start gap-2 rounded-lg bg-muted px-3 py-2 text-xs text-muted-foreground">
          <Info className="mt-0.5 size-3.5 shrink-0" aria-hidden />
          No embeddings provider is configured on the server, so search matches words only (full text), not meaning.
        </p>
      )}
      {search.isError ? (
        <p role="alert" className="flex items-start gap-2 rounded-xl border border-destructive/30 bg-destructive/5 p-4 text-sm text-destructive">
          <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
          {errorMessage(search.error)}
        </p>
      ) : search.data ? (
        search.data.length === 0 ? (
          <EmptyState icon={SearchX} title="Nothing matched">
            {asked !== null
              ? `No synced fragment of this datastore reaches a relevance of ${asked} for this query and these filters: an agent with this floor would say it does not know.`
              : 'No synced fragment matches this query and these filters. Content still syncing is not searched yet.'}
          </EmptyState>
        ) : (
          <>
            {asked === null && search.data.every(f => f.score < DEFAULT_MIN_SCORE) && (
              <p role="status" data-testid="nothing-relevant" className="flex items-start gap-2 rounded-xl border border-amber-500/40 bg-amber-500/5 p-4 text-sm">
                <SearchX className="mt-0.5 size-4 shrink-0" aria-hidden />
                Nothing relevant: no fragment reaches the default relevance floor ({DEFAULT_MIN_SCORE}). An agent reading this
                datastore would be given none of these and would say it does not know.
              </p>
            )}
            <p className="text-sm text-muted-foreground">
              {search.data.length} fragment{search.data.length === 1 ? '' : 's'}, best first
              {asked !== null ? `, relevance ${asked} or more` : ''}. Relevance runs from 0 to 1 and means the same for every
              question (README “Scores”).
            </p>
            <ol className="grid gap-3">
              {search.data.map((f, i) => (
                <FragmentCard key={`${f.datasource_id}-${i}`} fragment={f} rank={i + 1} minScore={asked} />
              ))}
            </ol>
          </>
        )
      ) : (
        <EmptyState icon={Search} title="Try a question">
          Type what a user might ask: you will see the fragments an agent reading this datastore would receive, with their
          scores and sources.
        </EmptyState>
      )}
    </section>
  )
}

/** How many fragments, and the relevance floor, as an agent would set them. */
function RankingFields({ topK, onTopK, minScore, onMinScore }: { topK: string; onTopK: (v: string) => void; minScore: string; onMinScore: (v: string) => void }) {
  return (
    <>
    <FormField id="search-topk" label="Results (topK)">
      <Input
        id="search-topk"
        type="number"
        inputMode="numeric"
        min={1}
        max={MAX_TOP_K}
        step={1}
        value={topK}
        onChange={e => onTopK(e.target.value)}
        className="w-28"
      />
    </FormField>
    <FormField
      id="search-min-score"
      label={
        <>
          Minimum relevance <Optional>(0 to 1)</Optional>
        </>
      }
    >
      <MinScoreInput id="search-min-score" value={minScore} onChange={onMinScore} aria-describedby="search-min-score-hint" />
      <p id="search-min-score-hint" className="text-xs text-muted-foreground">
        Fragments scoring below it are left out, as an agent with this floor would leave them out.
      </p>
    </FormField>
    </>
  )
}
