'use client'

// The crawl rules of a new web site: path patterns to keep and to leave out (one per line), pages and depth at most.
import { FormField } from '@/components/layout/form-field'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import type { CrawlRules } from './datastores-api'

export interface CrawlRulesDraft {
  include: string
  exclude: string
  maxPages: string
  maxDepth: string
}

export const EMPTY_RULES: CrawlRulesDraft = { include: '', exclude: '', maxPages: '', maxDepth: '' }

const lines = (text: string) => text.split('\n').map(l => l.trim()).filter(Boolean)

/** The rules to send (only those given), or a problem to show. */
export function rulesOf(draft: CrawlRulesDraft): { rules: Partial<CrawlRules> } | { problem: string } {
  const rules: Partial<CrawlRules> = {}
  if (lines(draft.include).length) rules.include = lines(draft.include)
  if (lines(draft.exclude).length) rules.exclude = lines(draft.exclude)
  for (const [key, max] of [['maxPages', 100_000], ['maxDepth', 20]] as const) {
    const text = draft[key].trim()
    if (!text) continue
    const n = Number(text)
    if (!Number.isInteger(n) || n < (key === 'maxPages' ? 1 : 0) || n > max) return { problem: `${key === 'maxPages' ? 'Max pages' : 'Max depth'} must be a whole number up to ${max.toLocaleString()}` }
    rules[key] = n
  }
  return { rules }
}

export function CrawlRulesFields({ draft, onChange }: { draft: CrawlRulesDraft; onChange: (draft: CrawlRulesDraft) => void }) {
  const set = (key: keyof CrawlRulesDraft) => (e: { target: { value: string } }) => onChange({ ...draft, [key]: e.target.value })
  return (
    <details className="rounded-lg border p-3 text-sm" data-testid="crawl-rules">
      <summary className="cursor-pointer font-medium">Crawl rules</summary>
      <p className="mt-2 text-xs text-muted-foreground">
        Patterns match the page’s path: a glob (<code>/docs/**</code>, <code>/blog/*</code>) or a regular expression between slashes
        (<code>/\/v[0-9]+\//</code>). One per line.
      </p>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <FormField id="web-site-include" label="Only pages matching" optional>
          <Textarea id="web-site-include" rows={2} value={draft.include} onChange={set('include')} placeholder="/docs/**" />
        </FormField>
        <FormField id="web-site-exclude" label="Never pages matching" optional>
          <Textarea id="web-site-exclude" rows={2} value={draft.exclude} onChange={set('exclude')} placeholder="/blog/*" />
        </FormField>
        <FormField id="web-site-max-pages" label="Max pages" optional>
          <Input id="web-site-max-pages" type="number" min={1} value={draft.maxPages} onChange={set('maxPages')} placeholder="Your plan’s limit" />
        </FormField>
        <FormField id="web-site-max-depth" label="Max link depth (crawl)" optional>
          <Input id="web-site-max-depth" type="number" min={0} max={20} value={draft.maxDepth} onChange={set('maxDepth')} placeholder="No limit" />
        </FormField>
      </div>
    </details>
  )
}
