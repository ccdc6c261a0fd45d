'use client'

// The text search language of a datastore (lib/domain/languages.ts): how its words are stemmed and which are stop words.
import { languageLabel, SEARCH_LANGUAGES, type SearchLanguage } from '@/lib/domain/languages'
import { cn } from '@/lib/utils'

export function LanguageSelect({ id, value, onChange, className }: { id: string; value: SearchLanguage; onChange: (value: SearchLanguage) => void; className?: string }) {
  return (
    <select
      id={id}
      value={value}
      onChange={e => onChange(e.target.value as SearchLanguage)}
      className={cn(
        'h-9 rounded-md border border-input bg-transparent px-2 text-sm shadow-xs outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:opacity-50',
        className,
      )}
    >
      {SEARCH_LANGUAGES.map(l => (
        <option key={l} value={l}>
          {languageLabel(l)}
        </option>
      ))}
    </select>
  )
}
