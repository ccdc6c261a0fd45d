import { Tiktoken } from 'js-tiktoken/lite'
import cl100kBase from 'js-tiktoken/ranks/cl100k_base'

// The encoder's tables take ~0.3 s to build: once per process, on first use.
let encoder: Tiktoken | null = null

function cl100k(): Tiktoken {
  return (encoder ??= new Tiktoken(cl100kBase))
}

// js-tiktoken's byte-pair merge is quadratic in the length of one pre-token, i.e. a run of letters, of punctuation or
// of white space without a break: 10,000 "a" took 5.6 s and 50,000 took 4 minutes, blocking the whole process. Such
// runs (never ordinary words) are encoded in slices of SLICE characters, which keeps the cost linear; a count over
// a sliced run may exceed the exact one by a token per slice, a safe error for budgets and chunk sizes.
const LONG_RUN = 64
const SLICE = 16
const SLICES = new RegExp(`[\\s\\S]{1,${SLICE}}`, 'gu')

// The long runs are found by a scan, not by a regular expression: /\p{L}{64,}/u over a 10 MB word of letters (a
// base64 blob pasted into a document) overflowed the regex engine's stack ("Maximum call stack size exceeded") and
// failed the whole datasource (issue 22). The scan is linear and has no depth whatever a run's length.
const LETTER = /\p{L}/u
const NUMBER = /\p{N}/u
const SPACE = /\s/u
const RunClass = { None: 0, Letter: 1, Space: 2, Symbol: 3 } as const
type RunClass = (typeof RunClass)[keyof typeof RunClass]

function runClassOf(cp: number, ch: string): RunClass {
  if (cp < 128) {
    if ((cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122)) return RunClass.Letter
    if (cp >= 48 && cp <= 57) return RunClass.None
    if (cp === 32 || (cp >= 9 && cp <= 13)) return RunClass.Space
    return RunClass.Symbol
  }
  if (LETTER.test(ch)) return RunClass.Letter
  if (SPACE.test(ch)) return RunClass.Space
  return NUMBER.test(ch) ? RunClass.None : RunClass.Symbol
}

/**
 * The maximal runs of LONG_RUN or more code points that are all letters, all white space, or all symbols (neither
 * letter, digit nor space): what the regular expression \p{L}{64,}|[^\s\p{L}\p{N}]{64,}|\s{64,} matches, in order.
 */
function* longRuns(text: string): Generator<{ index: number; run: string }> {
  let start = 0
  let length = 0
  let current: RunClass = RunClass.None
  const close = function* (end: number) {
    if (current !== RunClass.None && length >= LONG_RUN) yield { index: start, run: text.slice(start, end) }
  }
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!
    const size = cp > 0xffff ? 2 : 1
    const kind = runClassOf(cp, size === 1 ? text[i] : text.slice(i, i + 2))
    if (kind !== current) {
      yield* close(i)
      current = kind
      start = i
      length = 0
    }
    length++
    i += size
  }
  yield* close(text.length)
}

// slices of a long run repeat (a line of "=", a run of spaces): their tokens are kept, up to a bound
const sliceTokens = new Map<string, number[]>()

function encodeSlice(slice: string): number[] {
  let tokens = sliceTokens.get(slice)
  if (!tokens) {
    if (sliceTokens.size >= 10_000) sliceTokens.clear()
    tokens = cl100k().encode(slice, [], [])
    sliceTokens.set(slice, tokens)
  }
  return tokens
}

function encode(text: string): number[] {
  const out: number[] = []
  const add = (tokens: number[]) => {
    for (const t of tokens) out.push(t)
  }
  let last = 0
  for (const { index, run } of longRuns(text)) {
    if (index > last) add(cl100k().encode(text.slice(last, index), [], []))
    for (const [slice] of run.matchAll(SLICES)) add(encodeSlice(slice))
    last = index + run.length
  }
  if (last === 0) return cl100k().encode(text, [], [])
  if (last < text.length) add(cl100k().encode(text.slice(last), [], []))
  return out
}

// Counting is what the chunker does most (every sentence, every chunk): the encoder splits text into pre-tokens by
// cl100k's pattern and encodes each alone, so a count is the sum of its pre-tokens' counts, kept here per pre-token
// (words repeat): no UTF-8 encoding or merge for a word seen before. Exactly encode(text).length.
const PRE_TOKENS = new RegExp(cl100kBase.pat_str, 'gu')
/**
 * False only when longRuns finds none: no LONG_RUN code units in a row that are all non-ASCII or non-blank (every
 * letter or symbol run is), nor all non-ASCII or blank (every white-space run is).
 */
function mayHaveLongRun(text: string): boolean {
  let notBlank = 0
  let notPrintable = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    const ascii = c < 128
    const blank = c <= 32
    notBlank = ascii && blank ? 0 : notBlank + 1
    notPrintable = ascii && !blank ? 0 : notPrintable + 1
    if (notBlank >= LONG_RUN || notPrintable >= LONG_RUN) return true
  }
  return false
}
const preTokenCounts = new Map<string, number>()

// Counting needs cl100k's ranks only: keyed by their bytes as a binary string (a character a byte), built in a
// fraction of the encoder's time (it also keeps the reverse table, keyed by the bytes joined with commas).
let byteRanks: Map<string, number> | null = null

function ranks(): Map<string, number> {
  if (byteRanks) return byteRanks
  const table = new Map<string, number>()
  for (const line of cl100kBase.bpe_ranks.split('\n')) {
    // "<prefix> <first rank> <token in base64> <next token>…", as js-tiktoken reads it
    const fields = line.split(' ')
    if (fields.length < 3) continue
    const offset = Number.parseInt(fields[1], 10)
    for (let i = 2; i < fields.length; i++) table.set(Buffer.from(fields[i], 'base64').toString('latin1'), offset + i - 2)
  }
  return (byteRanks = table)
}

/**
 * How many tokens the byte-pair merge makes of one pre-token: the pair of neighbouring parts with the lowest rank
 * (the leftmost of equals) merges first, until no pair has a rank — js-tiktoken's bytePairMerge, which recomputes
 * every pair's rank (a string key each) after each merge; here only the merged part's two pairs are.
 */
function countPieceTokens(piece: string): number {
  const table = ranks()
  const bytes = Buffer.from(piece, 'utf8').toString('latin1')
  if (bytes.length <= 1 || table.has(bytes)) return 1
  // part k is bytes[starts[k], starts[k + 1]); pair[k]: the rank of parts k and k + 1 together
  const starts = Array.from({ length: bytes.length + 1 }, (_, i) => i)
  const pair = Array.from({ length: bytes.length - 1 }, (_, i) => table.get(bytes.slice(i, i + 2)) ?? Infinity)
  for (;;) {
    let at = -1
    let lowest = Infinity
    for (let k = 0; k < pair.length; k++) {
      if (pair[k] < lowest) {
        lowest = pair[k]
        at = k
      }
    }
    if (at < 0) break
    starts.splice(at + 1, 1)
    pair.splice(at, 1)
    if (at > 0) pair[at - 1] = table.get(bytes.slice(starts[at - 1], starts[at + 1])) ?? Infinity
    if (at < pair.length) pair[at] = table.get(bytes.slice(starts[at], starts[at + 2])) ?? Infinity
  }
  // every part is a token (cl100k has every single byte)
  return starts.length - 1
}

function countPreTokens(text: string): number {
  let n = 0
  for (const [piece] of text.matchAll(PRE_TOKENS)) {
    let count = preTokenCounts.get(piece)
    if (count === undefined) {
      count = countPieceTokens(piece)
      if (piece.length <= LONG_RUN) {
        if (preTokenCounts.size >= 100_000) preTokenCounts.clear()
        preTokenCounts.set(piece, count)
      }
    }
    n += count
  }
  return n
}

/** Tokens of `text` in cl100k_base (OpenAI's embeddings and chat models). Special-token text counts as plain text. */
export function countTokens(text: string): number {
  // most text has no long run: a cheap scan spares the Unicode-class scan of longRuns
  if (!mayHaveLongRun(text)) return countPreTokens(text)
  let n = 0
  let last = 0
  for (const { index, run } of longRuns(text)) {
    if (index > last) n += countPreTokens(text.slice(last, index))
    // a slice counts as the encoder encodes it: split by the same pattern, then merged (no encoder tables needed)
    for (const [slice] of run.matchAll(SLICES)) n += countPreTokens(slice)
    last = index + run.length
  }
  if (last < text.length) n += countPreTokens(last === 0 ? text : text.slice(last))
  return n
}

/**
 * Builds the counter's table now (~150 ms of this thread), rather than at the first count: the server's start does it
 * in idle time (lib/bootstrap.ts), so neither the first question (its history budget) nor the first synchronisation
 * waits for it.
 */
export function prepareTokenCounter(): void {
  ranks()
}

/** Whether the counter's table is built (prepareTokenCounter, or a first count). */
export function tokenCounterReady(): boolean {
  return byteRanks !== null
}

export function encodeTokens(text: string): number[] {
  return encode(text)
}
