import type { ChunkDraft, Section } from './sections'
import { sentencesOf } from './sentences'
import { TimeSlices } from './time-slices'
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

/**
 * Splits sections into chunks of at most `chunkSize` tokens. Paragraphs are kept whole when they fit in a chunk,
 * else sentences are; only a sentence longer than a chunk is cut (between words, or inside a word as a last resort).
 * Each chunk after the first of a section starts with the last whole sentences of the one before, up to
 * `chunkOverlap` tokens. Chunks never span sections, so each carries its section's metadata (page, slide…).
 * No chunk is empty.
 */
export function chunkSections(sections: Section[], options: ChunkingOptions): ChunkDraft[] {
  const out: ChunkDraft[] = []
  for (const section of sections) for (const _ of chunkSection(section, options, out));
  return out
}

/**
 * chunkSections for the worker: the same chunks, letting requests in every SLICE_MS, between sections and inside one
 * (a 5,000-page file, or a text file of several MB without a blank line, keeps requests answered).
 */
export async function chunkSectionsYielding(sections: Section[], options: ChunkingOptions): Promise<ChunkDraft[]> {
  const out: ChunkDraft[] = []
  const slices = new TimeSlices()
  for (const section of sections) {
    for (const _ of chunkSection(section, options, out)) if (slices.over) await slices.next()
  }
  return out
}

/** Chunks one section into `out`, one step at a time (a paragraph, or a sentence of a long one): see chunkSectionsYielding. */
function* chunkSection(section: Section, { chunkSize, chunkOverlap }: ChunkingOptions, out: ChunkDraft[]): Generator<void> {
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
    // the paragraph's units until they pass a chunk's size: enough to know whether it fits in one, without cutting
    // a paragraph of megabytes into sentences at once
    const units = unitsOf(paragraph, chunkSize, pieceSize)
    const head: Unit[] = []
    let tokens = 0
    for (let next = units.next(); !next.done; next = tokens > chunkSize ? { done: true, value: undefined } : units.next()) {
      head.push(next.value)
      tokens += next.value.tokens
    }
    if (tokens <= chunkSize) {
      if (currentTokens + tokens > chunkSize) {
        emit()
        makeRoom(tokens)
      }
      head.forEach(add)
    } else {
      for (const unit of chain(head, units)) {
        if (currentTokens + unit.tokens > chunkSize) {
          emit()
          makeRoom(unit.tokens)
        }
        add(unit)
        yield
      }
    }
    yield
  }
  emit()
}

function* chain<T>(first: T[], rest: Iterator<T>): Generator<T> {
  yield* first
  for (let next = rest.next(); !next.done; next = rest.next()) yield next.value
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

// A run of whitespace within a line, as one space; a lone space (most of them) is not matched: replacing each of a
// large file's million spaces by itself held the event loop ~0.5 s before the first chunk (session 28)
const SPACE_RUN = /[^\S\n ][^\S\n]*| [^\S\n]+/g

/** The text's paragraphs (split at blank lines), spaces tidied, one at a time: a file of megabytes is not tidied at once. */
function* paragraphsOf(text: string): Generator<string> {
  const lines = text.replace(/\r\n?/g, '\n')
  const blankLine = /\n\s*\n/g
  for (let from = 0; from <= lines.length; ) {
    const found = blankLine.exec(lines)
    const to = found ? found.index : lines.length
    const paragraph = lines.slice(from, to).replace(SPACE_RUN, ' ').trim()
    if (paragraph.length > 0) yield paragraph
    if (!found) return
    from = blankLine.lastIndex
  }
}

// Text this long is cut without counting its tokens whole first (a sentence or a "word" of megabytes, counted, would
// hold the event loop for seconds): it is longer than the largest chunk in any text but repeated characters, and a
// cut one is only ever smaller pieces
const LONG_TEXT = 65_536

/** The paragraph's sentences as units (a sentence longer than a chunk as its pieces), one at a time. */
function* unitsOf(paragraph: string, chunkSize: number, pieceSize: number): Generator<Unit> {
  let sep = '\n\n'
  for (const segment of sentencesOf(paragraph)) {
    const text = segment.trim()
    if (text) {
      const tokens = text.length > LONG_TEXT ? Infinity : countTokens(sep + text)
      if (tokens <= chunkSize) yield { text, sep, tokens }
      else yield* piecesOf(text, sep, pieceSize)
    }
    sep = /\n/.test(segment.slice(segment.trimEnd().length)) ? '\n' : ' '
  }
}

/** A sentence longer than a chunk, cut between words into pieces of at most `size` tokens. */
function* piecesOf(sentence: string, firstSep: string, size: number): Generator<Unit> {
  let words: string[] = []
  let tokens = 0
  let first = true
  const piece = (sep = first ? firstSep : ' '): Unit => {
    const unit = { text: words.join(' '), sep, tokens: tokens + (sep ? countTokens(sep) : 0) }
    words = []
    tokens = 0
    first = false
    return unit
  }
  for (const word of sentence.split(/\s+/)) {
    if (!word) continue
    const wordTokens = word.length > LONG_TEXT ? Infinity : countTokens(` ${word}`)
    if (wordTokens > size) {
      if (words.length > 0) yield piece()
      // the parts of a cut word join without a space
      let i = 0
      for (const part of cutWord(word, size - 1)) {
        words = [part]
        tokens = countTokens(part)
        yield piece(i++ === 0 ? undefined : '')
      }
      continue
    }
    if (tokens + wordTokens > size - 1 && words.length > 0) yield piece()
    words.push(word)
    tokens += wordTokens
  }
  if (words.length > 0) yield piece()
}

/** A "word" longer than a chunk (a URL, base64…): cut by characters, never inside a code point. */
function* cutWord(word: string, size: number): Generator<string> {
  // characters a token, from the word's start when it is long
  const sample = word.length > LONG_TEXT ? word.slice(0, LONG_TEXT) : word
  const ratio = Array.from(sample).length / Math.max(1, countTokens(sample))
  const chars = word.length > LONG_TEXT ? null : Array.from(word)
  const partAt = (start: number, length: number) => (chars ? chars.slice(start, start + length).join('') : codePoints(word, start, length))
  let start = 0
  const total = chars ? chars.length : word.length
  while (start < total) {
    let length = Math.max(1, Math.floor(size * ratio * 0.9))
    while (length > 1 && countTokens(partAt(start, length)) > size) length = Math.floor(length * 0.8)
    const part = partAt(start, length)
    yield part
    start += chars ? length : part.length
  }
}

/** `length` UTF-16 units of `text` from `start`, one fewer when the last would split a surrogate pair. */
function codePoints(text: string, start: number, length: number): string {
  let end = Math.min(text.length, start + length)
  const last = text.charCodeAt(end - 1)
  if (end < text.length && end - start > 1 && last >= 0xd800 && last <= 0xdbff) end--
  return text.slice(start, end)
}
