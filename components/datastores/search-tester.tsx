'use client'

import * as React from 'react'
import { useMutation, useQuery } from '@tanstack/react-query'
import { AlertCircle, Info, Loader2, Search, SearchX } from 'lucide-react'
import { errorMessage } from '@/components/api-client'
import { EmptyState } from '@/components/layout/empty-state'
import { FormAlert, FormField, Optional } from '@/components/layout/form-field'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { DEFAULT_MIN_SCORE, MAX_TOP_K } from '@/lib/domain/limits'
import { MinScoreInput } from '@/components/agents/retrieval-settings'
import { DatasourceStatusBadge } from './datasource-status-badge'
import { listDatasources, queryDatastore, type DatastoreQuery } from './datastores-api'
import { datasourcesQueryKey, type Datasource, type Datastore, type Fragment } from './types'

function splitList(value: string): string[] {
  return value
    .split(/[,\n]/)
    .map(v => v.trim())
    .filter(Boolean)
}

/** "3", or "3–4" for a fragment spanning pages; null when the fragment has no page (not from a PDF). */
function pageOf(metadata: Record<string, unknown>): string | null {
  const page = metadata.page
  if (typeof page === 'number' || (typeof page === 'string' && page.trim())) return String(page)
  return null
}

/** How relevant the score says the fragment is, in words, for the badge's title. */
function relevanceWords(score: number): string {
  if (score >= 0.6) return 'strong match'
  if (score >= 0.3) return 'partial match'
  return 'weak match'
}

function FragmentCard({ fragment, rank, minScore }: { fragment: Fragment; rank: number; minScore: number | null }) {
  const [open, setOpen] = React.useState(false)
  const long = fragment.text.length > 600
  const isUrl = /^https?:\/\//i.test(fragment.source)
  const page = pageOf(fragment.metadata ?? {})
  const percent = Math.round(Math.max(0, Math.min(1, fragment.score)) * 100)
  return (
    <li data-testid="fragment" className="grid gap-2 rounded-xl border p-4">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
        <span className="font-semibold text-foreground">#{rank}</span>
        <Badge
          variant="secondary"
          className="font-mono tabular-nums"
          data-testid="fragment-score"
          title={`Relevance ${fragment.score.toFixed(4)} (0 to 1, comparable across questions): ${relevanceWords(fragment.score)}${minScore !== null ? `; the floor is ${minScore}` : ''}`}
        >
          relevance score {fragment.score.toFixed(4)}
        </Badge>
        <span aria-hidden className="h-1.5 w-16 overflow-hidden rounded-full bg-muted">
          <span className="block h-full rounded-full bg-primary" style={{ width: `${percent}%` }} />
        </span>
        <span>
          from <span className="font-medium text-foreground">{fragment.datasource_name}</span>
        </span>
        {page && <span data-testid="fragment-page">page {page}</span>}
        {fragment.custom_id && (
          <span title="The id you gave this document (custom_id)">
            your id <code className="font-mono">{fragment.custom_id}</code>
          </span>
        )}
      </div>
      <p className={`text-sm whitespace-pre-wrap break-words ${!open && long ? 'line-clamp-6' : ''}`} data-testid="fragment-text">
        {fragment.text}
      </p>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="min-w-0 truncate text-xs text-muted-foreground" title={fragment.source}>
          Source:{' '}
          {isUrl ? (
            <a href={fragment.source} target="_blank" rel="noopener noreferrer" className="underline underline-offset-4">
              {fragment.source}
            </a>
          ) : (
            fragment.source
          )}
        </span>
        {long && (
          <Button type="button" variant="link" size="sm" className="h-auto p-0" onClick={() => setOpen(o => !o)} aria-expanded={open}>
            {open ? 'Show less' : 'Show all'}
          </Button>
        )}
      </div>
    </li>
  )
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
    const k = Number(topK)
    if (!query.trim()) return setProblem('Type what you are looking for')
    if (!Number.isInteger(k) || k < 1 || k > MAX_TOP_K) return setProblem(`Results must be a whole number from 1 to ${MAX_TOP_K}`)
    const floor = minScore.trim() === '' ? null : Number(minScore)
    if (floor !== null && !(floor >= 0 && floor <= 1)) return setProblem('Minimum relevance must be a number from 0 to 1, or empty')
    setProblem(null)
    const ids = splitList(customIds)
    const filters = ids.length || selected.length ? { ...(ids.length ? { custom_ids: ids } : {}), ...(selected.length ? { datasource_ids: selected } : {}) } : undefined
    setAsked(floor)
    search.mutate({ query, topK: k, filters, ...(floor !== null ? { minScore: floor } : {}) })
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
        <FormField id="search-topk" label="Results (topK)">
          <Input
            id="search-topk"
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_TOP_K}
            step={1}
            value={topK}
            onChange={e => setTopK(e.target.value)}
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
          <MinScoreInput id="search-min-score" value={minScore} onChange={setMinScore} aria-describedby="search-min-score-hint" />
          <p id="search-min-score-hint" className="text-xs text-muted-foreground">
            Fragments scoring below it are left out, as an agent with this floor would leave them out.
          </p>
        </FormField>
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
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium">
            Only these datasources <Optional />
          </legend>
          {datasourceList.length === 0 ? (
            <p className="text-xs text-muted-foreground">{sources.isPending ? 'Loading…' : 'No datasources yet.'}</p>
          ) : (
            <div className="grid max-h-48 gap-1.5 overflow-y-auto rounded-md border p-2">
              {datasourceList.map(ds => {
                const id = `filter-ds-${ds.id}`
                return (
                  <div key={ds.id} className="flex items-center gap-2">
                    <Checkbox
                      id={id}
                      checked={selected.includes(ds.id)}
                      onCheckedChange={v => setSelected(s => (v ? [...s, ds.id] : s.filter(x => x !== ds.id)))}
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
        <FormAlert message={problem} />
        <Button type="submit" disabled={search.isPending}>
          {search.isPending ? <Loader2 className="animate-spin" aria-hidden /> : <Search aria-hidden />}
          Search
        </Button>
      </form>

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
    </div>
  )
}
