import { randomBytes } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { chunkSections } from '@/lib/ingest/chunker'
import { countTokens, encodeTokens } from '@/lib/ingest/tokenizer'

// Issue 22, point 8: a single word of megabytes (a base64 blob pasted into a document) failed the whole datasource
// with "Maximum call stack size exceeded": the tokenizer's long-run regular expression overflowed the regex engine's
// stack. The runs are now found by a linear scan, whatever their length.

const MB = 1024 * 1024

describe('the tokenizer and the chunker take a word of any length', () => {
  test('a 10 MB word of letters is counted and encoded, the same both ways', () => {
    const word = 'a'.repeat(10 * MB)
    const count = countTokens(word)
    expect(count).toBe(encodeTokens(word).length)
    // encoded in slices of 16 letters: a few tokens each at most
    expect(count).toBeGreaterThanOrEqual(word.length / 16)
    expect(count).toBeLessThanOrEqual(word.length / 2)
  }, 120_000)

  test('a 10 MB run of symbols and a 10 MB run of spaces between words are counted', () => {
    expect(countTokens(`start ${'='.repeat(10 * MB)} end`)).toBeGreaterThan(0)
    expect(countTokens(`start${' '.repeat(10 * MB)}end`)).toBeGreaterThan(0)
  }, 120_000)

  test('a 10 MB word is chunked into chunks within the chunk size', () => {
    const word = `Intro. ${'b'.repeat(10 * MB)} Outro.`
    const chunks = chunkSections([{ text: word, metadata: {} }], { chunkSize: 512, chunkOverlap: 0 })
    expect(chunks.length).toBeGreaterThan(1000)
    for (const c of chunks) expect(c.tokens).toBeLessThanOrEqual(512)
    expect(chunks.map(c => c.text).join('').length).toBeGreaterThanOrEqual(10 * MB)
  }, 300_000)

  test('counts agree with the encoder on text mixing long runs of every kind and scripts', () => {
    const pieces = ['word ', 'ß'.repeat(70), '1234567890', ' '.repeat(80), '—'.repeat(65), '😀'.repeat(70), 'Ωμέγα'.repeat(20), '\n\n', randomBytes(3000).toString('base64'), 'x'.repeat(63)]
    for (let i = 0; i < 30; i++) {
      const text = Array.from({ length: 12 }, (_, j) => pieces[(i * 7 + j * 3) % pieces.length]).join('')
      expect(countTokens(text), text.slice(0, 40)).toBe(encodeTokens(text).length)
    }
  })
})
