'use client'

import * as React from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { errorMessage } from '@/components/api-client'
import { FormAlert, FormField } from '@/components/layout/form-field'
import { PendingButton } from '@/components/layout/pending-button'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import { cn } from '@/lib/utils'
import type { RefreshInterval } from '@/lib/domain/refresh'
import { CrawlRulesFields, EMPTY_RULES, rulesOf } from './crawl-rules-fields'
import { createWebDatasource, upsertDocuments, type CrawlRules } from './datastores-api'
import { RefreshSelect } from './refresh-select'
import { TYPE_LABELS } from './types'
import { datasourcesQueryKey } from './types'

function httpUrlProblem(value: string): string | null {
  const text = value.trim()
  if (!text) return 'Enter an address'
  try {
    const url = new URL(text)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'The address must start with http:// or https://'
    if (!url.hostname) return 'The address has no host'
    return null
  } catch {
    return 'This is not a web address (e.g. https://example.com/page)'
  }
}

/**
 * Adding one piece of content: `send` runs once the form's own check (`submit(problem)`) finds no problem; on
 * success the datasources table is refreshed, a toast says `what` was added, and `reset` empties the form.
 */
export function useAddContent(datastoreId: string, what: string, send: () => Promise<unknown>, reset: () => void) {
  const [problem, setProblem] = React.useState<string | null>(null)
  const queryClient = useQueryClient()
  const create = useMutation({
    mutationFn: send,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: datasourcesQueryKey(datastoreId) })
      toast.success(`${what} added`, { description: 'It is queued for syncing: watch its status in the table.' })
      reset()
    },
  })
  function submit(found: string | null) {
    setProblem(found)
    if (!found) create.mutate()
  }
  return { problem, create, submit }
}

/** The shell of an add form: its fields, the server's refusal (`errorId`), and the submit button. */
export function AddForm({
  onSubmit,
  create,
  errorId,
  submitLabel,
  children,
}: {
  onSubmit: () => void
  create: { isPending: boolean; isError: boolean; error: unknown }
  errorId: string
  submitLabel: string
  children: React.ReactNode
}) {
  return (
    <form
      className="grid gap-4"
      noValidate
      onSubmit={e => {
        e.preventDefault()
        onSubmit()
      }}
    >
      {children}
      <FormAlert id={errorId} message={create.isError ? errorMessage(create.error) : null} />
      <div>
        <PendingButton type="submit" pending={create.isPending}>
          {submitLabel}
        </PendingButton>
      </div>
    </form>
  )
}

/** A web_page or web_site datasource: its address (sent as `config[configKey]`) and an optional name. */
function WebDatasourceForm({
  datastoreId,
  type,
  configKey,
  idPrefix,
  urlLabel,
  urlPlaceholder,
  urlHint,
  submitLabel,
  children,
  extraConfig,
  after,
}: {
  datastoreId: string
  type: 'web_page' | 'web_site'
  configKey: 'source_url' | 'sitemap'
  idPrefix: string
  urlLabel: string
  urlPlaceholder: string
  /** Shown under the address while it has no problem. */
  urlHint?: string
  submitLabel: string
  /** What comes before the address (the web site's choice of where to find pages). */
  children?: React.ReactNode
  /** More of the config (a web site's crawl rules), or the problem that stops the form. */
  extraConfig?: () => { rules: Partial<CrawlRules> } | { problem: string }
  /** What comes after the name (the crawl rules). */
  after?: React.ReactNode
}) {
  const [url, setUrl] = React.useState('')
  const [name, setName] = React.useState('')
  const [refresh, setRefresh] = React.useState<RefreshInterval | null>(null)
  const what = TYPE_LABELS[type]
  const extra = extraConfig?.()
  const rules = extra && 'rules' in extra ? extra.rules : {}
  const send = () =>
    createWebDatasource({ datastoreId, type, name: name.trim() || undefined, config: { [configKey]: url.trim(), ...rules }, refreshInterval: refresh })
  const { problem, create, submit } = useAddContent(datastoreId, what, send, () => {
    setUrl('')
    setName('')
  })
  const urlId = `${idPrefix}-url`
  return (
    <AddForm
      onSubmit={() => submit(httpUrlProblem(url) ?? (extra && 'problem' in extra ? extra.problem : null))}
      create={create}
      errorId={`${idPrefix}-error`}
      submitLabel={submitLabel}
    >
      {children}
      <FormField id={urlId} label={urlLabel}>
        <Input
          id={urlId}
          type="url"
          inputMode="url"
          value={url}
          onChange={e => setUrl(e.target.value)}
          placeholder={urlPlaceholder}
          aria-invalid={!!problem || undefined}
          aria-describedby={problem ? `${urlId}-error` : urlHint ? `${urlId}-hint` : undefined}
          autoComplete="off"
        />
        {problem || !urlHint ? (
          <FormAlert id={`${urlId}-error`} message={problem} />
        ) : (
          <p id={`${urlId}-hint`} className="text-xs text-muted-foreground">
            {urlHint}
          </p>
        )}
      </FormField>
      <FormField id={`${idPrefix}-name`} label="Name" optional>
        <Input id={`${idPrefix}-name`} value={name} onChange={e => setName(e.target.value)} maxLength={200} placeholder="Defaults to the address" />
      </FormField>
      <FormField id={`${idPrefix}-refresh`} label="Refresh">
        <RefreshSelect id={`${idPrefix}-refresh`} value={refresh} onChange={setRefresh} inherited className="w-fit" />
      </FormField>
      {after}
    </AddForm>
  )
}

export function WebPageForm({ datastoreId }: { datastoreId: string }) {
  return (
    <WebDatasourceForm
      datastoreId={datastoreId}
      type="web_page"
      configKey="source_url"
      idPrefix="web-page"
      urlLabel="Page address"
      urlPlaceholder="https://example.com/docs/pricing"
      urlHint="The page is fetched now, on each re-sync and on its refresh schedule; its main text is kept."
      submitLabel="Add web page"
    />
  )
}

const SITE_MODES = [
  ['source_url', 'The site’s root address', 'Sitemaps listed in robots.txt, else /sitemap.xml, else links on the site'],
  ['sitemap', 'A sitemap', 'Exactly the pages listed in a sitemap.xml'],
] as const

export function WebSiteForm({ datastoreId }: { datastoreId: string }) {
  const [mode, setMode] = React.useState<'sitemap' | 'source_url'>('source_url')
  const [rules, setRules] = React.useState(EMPTY_RULES)
  return (
    <WebDatasourceForm
      datastoreId={datastoreId}
      type="web_site"
      configKey={mode}
      idPrefix="web-site"
      urlLabel={mode === 'sitemap' ? 'Sitemap address' : 'Site address'}
      urlPlaceholder={mode === 'sitemap' ? 'https://example.com/sitemap.xml' : 'https://example.com'}
      submitLabel="Add web site"
      extraConfig={() => rulesOf(rules)}
      after={<CrawlRulesFields draft={rules} onChange={setRules} />}
    >
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">Find the pages from</legend>
        <div className="grid gap-2 sm:grid-cols-2" role="radiogroup">
          {SITE_MODES.map(([value, title, hint]) => (
            <label
              key={value}
              className={cn(
                'flex cursor-pointer items-start gap-2 rounded-lg border p-3 text-sm has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50',
                mode === value && 'border-primary bg-muted/40',
              )}
            >
              <input
                type="radio"
                name="web-site-mode"
                value={value}
                checked={mode === value}
                onChange={() => setMode(value)}
                className="mt-0.5 accent-primary"
              />
              <span className="grid gap-0.5">
                <span className="font-medium">{title}</span>
                <span className="text-xs text-muted-foreground">{hint}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
    </WebDatasourceForm>
  )
}

export function TextForm({ datastoreId }: { datastoreId: string }) {
  const [name, setName] = React.useState('')
  const [text, setText] = React.useState('')
  const [source, setSource] = React.useState('')
  const send = () =>
    upsertDocuments(datastoreId, [{ text, name: name.trim() || undefined, metadata: source.trim() ? { source: source.trim() } : undefined }])
  const { problem, create, submit } = useAddContent(datastoreId, 'Text', send, () => {
    setName('')
    setText('')
    setSource('')
  })
  return (
    <AddForm onSubmit={() => submit(text.trim() ? null : 'Paste or type some text')} create={create} errorId="text-error" submitLabel="Add text">
      <div className="grid gap-2 sm:grid-cols-2 sm:gap-4">
        <FormField id="text-name" label="Name" optional>
          <Input id="text-name" value={name} onChange={e => setName(e.target.value)} maxLength={500} placeholder="e.g. Refund policy" />
        </FormField>
        <FormField id="text-source" label="Source" optional>
          <Input id="text-source" value={source} onChange={e => setSource(e.target.value)} placeholder="Shown with answers, e.g. a URL" />
        </FormField>
      </div>
      <FormField id="text-content" label="Text">
        <Textarea
          id="text-content"
          value={text}
          onChange={e => setText(e.target.value)}
          rows={6}
          className="max-h-80"
          placeholder="Paste the text agents should know about"
          aria-invalid={!!problem || undefined}
          aria-describedby={problem ? 'text-content-error' : undefined}
        />
        <FormAlert id="text-content-error" message={problem} />
      </FormField>
    </AddForm>
  )
}
