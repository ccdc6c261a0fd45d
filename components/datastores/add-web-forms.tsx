'use client'

import * as React from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { AlertCircle, Loader2 } from 'lucide-react'
import { toast } from 'sonner'
import { apiFetch, errorMessage } from '@/components/api-client'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Textarea } from '@/components/ui/textarea'
import { cn } from '@/lib/utils'
import { datasourcesQueryKey, type Datasource } from './types'

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

function FormError({ id, message }: { id: string; message: string | null | undefined }) {
  if (!message) return null
  return (
    <p id={id} role="alert" className="flex items-start gap-2 text-sm text-destructive">
      <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
      {message}
    </p>
  )
}

function useCreated(datastoreId: string, what: string, reset: () => void) {
  const queryClient = useQueryClient()
  return () => {
    void queryClient.invalidateQueries({ queryKey: datasourcesQueryKey(datastoreId) })
    toast.success(`${what} added`, { description: 'It is queued for syncing: watch its status in the table.' })
    reset()
  }
}

export function WebPageForm({ datastoreId }: { datastoreId: string }) {
  const [url, setUrl] = React.useState('')
  const [name, setName] = React.useState('')
  const [problem, setProblem] = React.useState<string | null>(null)
  const done = useCreated(datastoreId, 'Web page', () => {
    setUrl('')
    setName('')
  })
  const create = useMutation({
    mutationFn: () =>
      apiFetch<Datasource>('/api/datasources', {
        method: 'POST',
        json: { datastoreId, type: 'web_page', name: name.trim() || undefined, config: { source_url: url.trim() } },
      }),
    onSuccess: done,
  })
  return (
    <form
      className="grid gap-4"
      noValidate
      onSubmit={e => {
        e.preventDefault()
        const p = httpUrlProblem(url)
        setProblem(p)
        if (!p) create.mutate()
      }}
    >
      <div className="grid gap-2">
        <Label htmlFor="web-page-url">Page address</Label>
        <Input
          id="web-page-url"
          type="url"
          inputMode="url"
          value={url}
          onChange={e => setUrl(e.target.value)}
          placeholder="https://example.com/docs/pricing"
          aria-invalid={!!problem || undefined}
          aria-describedby={problem ? 'web-page-url-error' : 'web-page-url-hint'}
          autoComplete="off"
        />
        {problem ? (
          <FormError id="web-page-url-error" message={problem} />
        ) : (
          <p id="web-page-url-hint" className="text-xs text-muted-foreground">
            The page is fetched once now and again on each re-sync; its main text is kept.
          </p>
        )}
      </div>
      <div className="grid gap-2">
        <Label htmlFor="web-page-name">
          Name <span className="font-normal text-muted-foreground">(optional)</span>
        </Label>
        <Input id="web-page-name" value={name} onChange={e => setName(e.target.value)} maxLength={200} placeholder="Defaults to the address" />
      </div>
      <FormError id="web-page-error" message={create.isError ? errorMessage(create.error) : null} />
      <div>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending && <Loader2 className="animate-spin" aria-hidden />}
          Add web page
        </Button>
      </div>
    </form>
  )
}

export function WebSiteForm({ datastoreId }: { datastoreId: string }) {
  const [mode, setMode] = React.useState<'sitemap' | 'source_url'>('source_url')
  const [url, setUrl] = React.useState('')
  const [name, setName] = React.useState('')
  const [problem, setProblem] = React.useState<string | null>(null)
  const done = useCreated(datastoreId, 'Web site', () => {
    setUrl('')
    setName('')
  })
  const create = useMutation({
    mutationFn: () =>
      apiFetch<Datasource>('/api/datasources', {
        method: 'POST',
        json: { datastoreId, type: 'web_site', name: name.trim() || undefined, config: { [mode]: url.trim() } },
      }),
    onSuccess: done,
  })
  return (
    <form
      className="grid gap-4"
      noValidate
      onSubmit={e => {
        e.preventDefault()
        const p = httpUrlProblem(url)
        setProblem(p)
        if (!p) create.mutate()
      }}
    >
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">Find the pages from</legend>
        <div className="grid gap-2 sm:grid-cols-2" role="radiogroup">
          {(
            [
              ['source_url', 'The site’s root address', 'Sitemaps listed in robots.txt, else /sitemap.xml, else links on the site'],
              ['sitemap', 'A sitemap', 'Exactly the pages listed in a sitemap.xml'],
            ] as const
          ).map(([value, title, hint]) => (
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
      <div className="grid gap-2">
        <Label htmlFor="web-site-url">{mode === 'sitemap' ? 'Sitemap address' : 'Site address'}</Label>
        <Input
          id="web-site-url"
          type="url"
          inputMode="url"
          value={url}
          onChange={e => setUrl(e.target.value)}
          placeholder={mode === 'sitemap' ? 'https://example.com/sitemap.xml' : 'https://example.com'}
          aria-invalid={!!problem || undefined}
          aria-describedby={problem ? 'web-site-url-error' : undefined}
          autoComplete="off"
        />
        <FormError id="web-site-url-error" message={problem} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="web-site-name">
          Name <span className="font-normal text-muted-foreground">(optional)</span>
        </Label>
        <Input id="web-site-name" value={name} onChange={e => setName(e.target.value)} maxLength={200} placeholder="Defaults to the address" />
      </div>
      <FormError id="web-site-error" message={create.isError ? errorMessage(create.error) : null} />
      <div>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending && <Loader2 className="animate-spin" aria-hidden />}
          Add web site
        </Button>
      </div>
    </form>
  )
}

export function TextForm({ datastoreId }: { datastoreId: string }) {
  const [name, setName] = React.useState('')
  const [text, setText] = React.useState('')
  const [source, setSource] = React.useState('')
  const [problem, setProblem] = React.useState<string | null>(null)
  const done = useCreated(datastoreId, 'Text', () => {
    setName('')
    setText('')
    setSource('')
  })
  const create = useMutation({
    mutationFn: () =>
      apiFetch<{ ids: string[] }>(`/api/datastores/upsert/${encodeURIComponent(datastoreId)}`, {
        method: 'POST',
        json: {
          documents: [{ text, name: name.trim() || undefined, metadata: source.trim() ? { source: source.trim() } : undefined }],
        },
      }),
    onSuccess: done,
  })
  return (
    <form
      className="grid gap-4"
      noValidate
      onSubmit={e => {
        e.preventDefault()
        const p = text.trim() ? null : 'Paste or type some text'
        setProblem(p)
        if (!p) create.mutate()
      }}
    >
      <div className="grid gap-2 sm:grid-cols-2 sm:gap-4">
        <div className="grid gap-2">
          <Label htmlFor="text-name">
            Name <span className="font-normal text-muted-foreground">(optional)</span>
          </Label>
          <Input id="text-name" value={name} onChange={e => setName(e.target.value)} maxLength={500} placeholder="e.g. Refund policy" />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="text-source">
            Source <span className="font-normal text-muted-foreground">(optional)</span>
          </Label>
          <Input id="text-source" value={source} onChange={e => setSource(e.target.value)} placeholder="Shown with answers, e.g. a URL" />
        </div>
      </div>
      <div className="grid gap-2">
        <Label htmlFor="text-content">Text</Label>
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
        <FormError id="text-content-error" message={problem} />
      </div>
      <FormError id="text-error" message={create.isError ? errorMessage(create.error) : null} />
      <div>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending && <Loader2 className="animate-spin" aria-hidden />}
          Add text
        </Button>
      </div>
    </form>
  )
}
