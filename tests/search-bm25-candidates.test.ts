import { describe, expect, test } from 'vitest'
import { getDatabase } from '@/lib/db/client'
import { qualifyingTermSets, setsQuery } from '@/lib/search/bm25-candidates'

/** Every subset of the terms whose bounds reach θ must contain one of the sets (exactness), by brute force. */
function covers(bounds: number[], theta: number, sets: number[][]): boolean {
  for (let mask = 1; mask < 1 << bounds.length; mask++) {
    const held = bounds.map((_, i) => i).filter(i => mask & (1 << i))
    const sum = held.reduce((s, i) => s + bounds[i], 0)
    if (sum >= theta && !sets.some(set => set.every(i => held.includes(i)))) return false
  }
  return true
}

describe('the chunks BM25 must still fetch', () => {
  test('θ above every single bound: pairs', () => {
    expect(qualifyingTermSets([3, 2, 1.5], 4)).toEqual([[0, 1], [0, 2]])
  })
  test('a bound alone reaching θ: that term alone', () => {
    // 2 + 1 < 4: the other two together cannot
    expect(qualifyingTermSets([5, 2, 1], 4)).toEqual([[0]])
    expect(qualifyingTermSets([5, 2, 2.5], 4)).toEqual([[0], [1, 2]])
  })
  test('nothing can reach θ: no set', () => {
    expect(qualifyingTermSets([1, 1, 1], 3.5)).toEqual([])
  })
  test('exact: every combination of terms that can reach θ holds one of the sets', () => {
    let seed = 7
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647)
    for (let round = 0; round < 200; round++) {
      const bounds = Array.from({ length: 2 + Math.floor(random() * 7) }, () => 0.5 + random() * 8)
      const theta = random() * bounds.reduce((a, b) => a + b, 0)
      const sets = qualifyingTermSets(bounds, theta, 10_000)!
      expect(covers(bounds, theta, sets)).toBe(true)
    }
  })
  test('too many sets: null, and the caller falls back to OR rounds', () => {
    expect(qualifyingTermSets(Array.from({ length: 20 }, () => 1), 5, 64)).toBeNull()
  })
  test('the tsquery: an OR of ANDs factored by leading terms, lexemes quoted', () => {
    expect(setsQuery([['a'], ["it's", 'b\\c']])).toBe("'a' | 'it''s' & 'b\\\\c'")
    expect(setsQuery([['a', 'b'], ['a', 'c', 'd'], ['a', 'c', 'e'], ['b', 'c']])).toBe("'a' & ('b' | 'c' & ('d' | 'e')) | 'b' & 'c'")
    // a set that is a prefix of another makes the longer one redundant
    expect(setsQuery([['a'], ['a', 'b'], ['c', 'd']])).toBe("'a' | 'c' & 'd'")
  })
  test('the factored tsquery matches exactly the documents holding every term of some set (PostgreSQL decides)', async () => {
    const { sql } = await getDatabase()
    let seed = 11
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647)
    const words = ['w0', 'w1', 'w2', 'w3', 'w4', 'w5', 'w6', 'w7']
    const documents = Array.from({ length: 60 }, () => words.filter(() => random() < 0.4))
    for (let round = 0; round < 25; round++) {
      const bounds = words.map(() => 0.5 + random() * 6)
      const theta = (0.2 + random() * 0.6) * bounds.reduce((a, b) => a + b, 0)
      const sets = qualifyingTermSets(bounds, theta, 10_000)!
      if (sets.length === 0) continue
      const expected = documents.map(d => sets.some(set => set.every(i => d.includes(words[i]))))
      const rows = await sql.query<{ hit: boolean }>(
        `SELECT to_tsvector('simple', d) @@ $1::tsquery AS hit FROM unnest($2::text[]) WITH ORDINALITY AS t(d, n) ORDER BY n`,
        [setsQuery(sets.map(set => set.map(i => words[i]))), documents.map(d => d.join(' '))],
      )
      expect(rows.map(r => r.hit)).toEqual(expected)
    }
  })
})
