'use client'

import * as React from 'react'
import { FormAlert, FormField } from '@/components/layout/form-field'
import { Input } from '@/components/ui/input'
import { cn } from '@/lib/utils'
import type { RefreshInterval } from '@/lib/domain/refresh'
import { AddForm, useAddContent } from './add-form'
import { CrawlRulesFields, EMPTY_RULES, rulesOf } from './crawl-rules-fields'
import { createWebDatasource, type CrawlRules } from './datastores-api'
import { RefreshSelect } from './refresh-select'
import { TYPE_LABELS } from './types'

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

/** The address of a web form: its problem once submitted, else its hint (if it has one). */
function AddressField({
  id,
  label,
  placeholder,
  hint,
  problem,
  value,
  onChange,
}: {
  id: string
  label: string
  placeholder: string
  hint?: string
  problem: string | null
  value: string
  onChange: (value: string) => void
}) {
  return (
    <FormField id={id} label={label}>
      <Input
        id={id}
        type="url"
        inputMode="url"
        value={value}
        onChange={e => onChange(e.target.value)}
        placeholder={placeholder}
        aria-invalid={!!problem || undefined}
        aria-describedby={problem ? `${id}-error` : hint ? `${id}-hint` : undefined}
        autoComplete="off"
      />
      {problem || !hint ? (
        <FormAlert id={`${id}-error`} message={problem} />
      ) : (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
    </FormField>
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
  return (
    <AddForm
      onSubmit={() => submit(httpUrlProblem(url) ?? (extra && 'problem' in extra ? extra.problem : null))}
      create={create}
      errorId={`${idPrefix}-error`}
      submitLabel={submitLabel}
    >
      {children}
      <AddressField id={`${idPrefix}-url`} label={urlLabel} placeholder={urlPlaceholder} hint={urlHint} problem={problem} value={url} onChange={setUrl} />
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
