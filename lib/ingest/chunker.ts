import type { ChunkDraft, Section } from './sections'
import { countTokens } from './tokenizer'

export interface ChunkingOptions {
  /** Most tokens (cl100k_base) in a chunk. */
  chunkSize: number
  /** Tokens of whole sentences a chunk repeats from the end of the one before, at most. */
  chunkOverlap: number
}

export const DEFAULT_CHUNKING: ChunkingOptions = { chunkSize: 512, chunkOverlap: 64 }

const MIN_CHUNK_SIZE = 32
const MAX_CHUNK_SIZE = 8192

/** A datastore's chunk settings made safe: 32 to 8192 tokens a chunk, an overlap of at most half of it. */
export function chunkingFor(store: { chunkSize?: number | null; chunkOverlap?: number | null }): ChunkingOptions {
  const chunkSize = Math.min(MAX_CHUNK_SIZE, Math.max(MIN_CHUNK_SIZE, Math.floor(store.chunkSize || DEFAULT_CHUNKING.chunkSize)))
  const overlap = store.chunkOverlap ?? DEFAULT_CHUNKING.chunkOverlap
  const chunkOverlap = Math.min(Math.floor(chunkSize / 2), Math.max(0, Math.floor(overlap)))
  return { chunkSize, chunkOverlap }
}

/** A sentence (or a piece of one too long for a chunk), with what joins it to the unit before and its tokens. */
interface Unit {
  text: string
  /** '\n\n' before a paragraph's first unit, '\n' or ' ' inside one (as in the source). */
  sep: string
  tokens: number
}

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' })

/**
 * Splits sections into chunks of at most `chunkSize` tokens. Paragraphs are kept whole when they fit in a chunk,
 * else sentences are; only a sentence longer than a chunk is cut (between words, or inside a word as a last resort).
 * Each chunk after the first of a section starts with the last whole sentences of the one before, up to
 * `chunkOverlap` tokens. Chunks never span sections, so each carries its section's metadata (page, slide…).
 * No chunk is empty.
 */
export function chunkSections(sections: Section[], options: ChunkingOptions): ChunkDraft[] {
  const out: ChunkDraft[] = []
  for (const section of sections) chunkSection(section, options, out)
  return out
}

// The longest the worker's chunking holds the event loop before letting requests in (it shares the web server's)
const SLICE_MS = 20

/** chunkSections for the worker: the same chunks, yielding between sections so a 5,000-page file keeps requests answered. */
export async function chunkSectionsYielding(sections: Section[], options: ChunkingOptions): Promise<ChunkDraft[]> {
  const out: ChunkDraft[] = []
  let sliceStart = performance.now()
  for (const section of sections) {
    chunkSection(section, options, out)
    if (performance.now() - sliceStart > SLICE_MS) {
      await new Promise(resolve => setImmediate(resolve))
      sliceStart = performance.now()
    }
  }
  return out
}

function chunkSection(section: Section, { chunkSize, chunkOverlap }: ChunkingOptions, out: ChunkDraft[]): void {
  // long sentences are cut into pieces small enough for the overlap to carry some of them
  const pieceSize = chunkOverlap > 0 ? Math.max(16, Math.floor(chunkOverlap / 2)) : chunkSize
  let current: Unit[] = []
  let currentTokens = 0
  // units added since the last chunk was emitted (the others are the overlap carried from it)
  let fresh = 0

  const emit = () => {
    if (fresh === 0) return
    const text = current.map((u, i) => (i === 0 ? u.text : u.sep + u.text)).join('')
    out.push({ text, tokens: countTokens(text), metadata: { ...section.metadata } })
    current = overlapTail(current, chunkOverlap)
    currentTokens = sum(current)
    fresh = 0
  }
  // drops carried overlap, oldest first, until `tokens` more fit
  const makeRoom = (tokens: number) => {
    while (current.length > 0 && currentTokens + tokens > chunkSize) currentTokens -= current.shift()!.tokens
  }
  const add = (unit: Unit) => {
    current.push(unit)
    currentTokens += unit.tokens
    fresh++
  }

  for (const paragraph of paragraphsOf(section.text)) {
    const units = unitsOf(paragraph, chunkSize, pieceSize)
    const tokens = sum(units)
    if (currentTokens + tokens <= chunkSize) {
      units.forEach(add)
    } else if (tokens <= chunkSize) {
      emit()
      makeRoom(tokens)
      units.forEach(add)
    } else {
      for (const unit of units) {
        if (currentTokens + unit.tokens > chunkSize) {
          emit()
          makeRoom(unit.tokens)
        }
        add(unit)
      }
    }
  }
  emit()
}

function sum(units: Unit[]): number {
  return units.reduce((n, u) => n + u.tokens, 0)
}

/** The last whole units of a chunk that fit in `overlap` tokens, never all of them. */
function overlapTail(units: Unit[], overlap: number): Unit[] {
  if (overlap <= 0) return []
  let tokens = 0
  let i = units.length
  while (i > 1 && tokens + units[i - 1].tokens <= overlap) {
    tokens += units[i - 1].tokens
    i--
  }
  return units.slice(i)
}

function paragraphsOf(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .split(/\n\s*\n/)
    .map(p => p.trim())
    .filter(p => p.length > 0)
}

function unitsOf(paragraph: string, chunkSize: number, pieceSize: number): Unit[] {
  const units: Unit[] = []
  let sep = '\n\n'
  for (const { segment } of sentences.segment(paragraph)) {
    const text = segment.trim()
    if (text) {
      const tokens = countTokens(sep + text)
      if (tokens <= chunkSize) units.push({ text, sep, tokens })
      else units.push(...piecesOf(text, sep, pieceSize))
    }
    sep = /\n/.test(segment.slice(segment.trimEnd().length)) ? '\n' : ' '
  }
  return units
}

/** A sentence longer than a chunk, cut between words into pieces of at most `size` tokens. */
function piecesOf(sentence: string, firstSep: string, size: number): Unit[] {
  const pieces: Unit[] = []
  let words: string[] = []
  let tokens = 0
  const flush = (sep = pieces.length === 0 ? firstSep : ' ') => {
    if (words.length === 0) return
    pieces.push({ text: words.join(' '), sep, tokens: tokens + (sep ? countTokens(sep) : 0) })
    words = []
    tokens = 0
  }
  for (const word of sentence.split(/\s+/)) {
    if (!word) continue
    const wordTokens = countTokens(` ${word}`)
    if (wordTokens > size) {
      flush()
      // the parts of a cut word join without a space
      for (const [i, part] of cutWord(word, size - 1).entries()) {
        words = [part]
        tokens = countTokens(part)
        flush(i === 0 ? undefined : '')
      }
      continue
    }
    if (tokens + wordTokens > size - 1) flush()
    words.push(word)
    tokens += wordTokens
  }
  flush()
  return pieces
}

/** A "word" longer than a chunk (a URL, base64…): cut by characters, never inside a code point. */
function cutWord(word: string, size: number): string[] {
  const chars = Array.from(word)
  const ratio = chars.length / Math.max(1, countTokens(word))
  const parts: string[] = []
  let start = 0
  while (start < chars.length) {
    let length = Math.max(1, Math.floor(size * ratio * 0.9))
    while (length > 1 && countTokens(chars.slice(start, start + length).join('')) > size) length = Math.floor(length * 0.8)
    parts.push(chars.slice(start, start + length).join(''))
    start += length
  }
  return parts
}
