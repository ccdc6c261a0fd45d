import { describe, expect, test } from 'vitest'
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
  test('the tsquery: an OR of ANDs, lexemes quoted', () => {
    expect(setsQuery([['a'], ["it's", 'b\\c']])).toBe("'a' | ('it''s' & 'b\\\\c')")
  })
})
