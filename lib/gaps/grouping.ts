// Grouping of similar questions for the knowledge-gap queue: pure functions, no database.
//
// A question is normalised (lower case, accents and punctuation dropped, whitespace collapsed, a few filler words
// such as "please" or "hi" removed), then compared by the Jaccard similarity of its character trigram sets (the
// measure of PostgreSQL's pg_trgm, computed here so it works without the extension). Questions whose similarity to
// a group's first question is at least SIMILAR_QUESTIONS go in that group; groups keep the order of their newest
// question. Identical normalised questions always group (similarity 1).

export const SIMILAR_QUESTIONS = 0.5

const FILLERS = new Set(['please', 'pls', 'hi', 'hello', 'hey', 'thanks', 'thank', 'you', 'a', 'an', 'the', 'can', 'could', 'would', 'i', 'me', 'tell', 'us'])

export function normaliseQuestion(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .split(' ')
    .filter(w => w && !FILLERS.has(w))
    .join(' ')
}

/** pg_trgm's trigrams: each word padded with two spaces before and one after. */
export function trigrams(normalised: string): Set<string> {
  const set = new Set<string>()
  for (const word of normalised.split(' ').filter(Boolean)) {
    const padded = `  ${word} `
    for (let i = 0; i + 3 <= padded.length; i++) set.add(padded.slice(i, i + 3))
  }
  return set
}

export function similarity(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1
  let shared = 0
  for (const t of a) if (b.has(t)) shared++
  return shared / (a.size + b.size - shared)
}

export interface Groupable {
  question: string
}

/** Items grouped by similar question, in the order given (pass them newest first). */
export function groupBySimilarQuestion<T extends Groupable>(items: T[], threshold = SIMILAR_QUESTIONS): { key: string; items: T[] }[] {
  const groups: { key: string; grams: Set<string>; items: T[] }[] = []
  for (const item of items) {
    const key = normaliseQuestion(item.question)
    const grams = trigrams(key)
    const group = groups.find(g => g.key === key || similarity(g.grams, grams) >= threshold)
    if (group) group.items.push(item)
    else groups.push({ key, grams, items: [item] })
  }
  return groups.map(({ key, items }) => ({ key, items }))
}
