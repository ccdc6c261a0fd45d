// The languages a datastore's text can be indexed in: PostgreSQL's text search configurations (the Snowball stemmers
// PostgreSQL 15 and later ship, and `simple`: lower-cased words, no stemming, no stop words). A datastore's chunks
// and the questions asked of it are tokenised in its language; Chinese, Japanese and Korean text is indexed as
// character bigrams whatever the language (migration 20261126130000_bm25_search).
export const SEARCH_LANGUAGES = [
  'english', 'simple', 'arabic', 'armenian', 'basque', 'catalan', 'danish', 'dutch', 'finnish', 'french', 'german',
  'greek', 'hindi', 'hungarian', 'indonesian', 'irish', 'italian', 'lithuanian', 'nepali', 'norwegian', 'portuguese',
  'romanian', 'russian', 'serbian', 'spanish', 'swedish', 'tamil', 'turkish', 'yiddish',
] as const

export type SearchLanguage = (typeof SEARCH_LANGUAGES)[number]

export const DEFAULT_SEARCH_LANGUAGE: SearchLanguage = 'english'

/** The name a person reads: "French"; `simple` is "Any language (no stemming)". */
export function languageLabel(language: SearchLanguage): string {
  return language === 'simple' ? 'Any language (no stemming)' : language[0].toUpperCase() + language.slice(1)
}
