// Which chunks the BM25 ranking must still fetch once some of the question's terms were fetched (lib/search/fulltext.ts).
//
// A chunk not fetched yet holds none of the fetched terms, so its score is at most the sum of the upper bounds
// (idf · (k1 + 1)) of the unfetched terms it holds. Once θ, the pool's limit-th best score, is known, it can enter the
// pool only if those terms' bounds reach θ: it must hold every term of at least one set S of unfetched terms with
// Σ bound(S) ≥ θ. The sets found below (by a depth-first walk, largest bounds first, stopping a set as soon as its
// sum reaches θ) cover every such chunk, so asking the GIN index for "S₁'s terms all, or S₂'s terms all, or …" (an OR
// of ANDs: posting lists intersected) finds exactly the chunks that can still matter, instead of every chunk holding
// any common word of the question.

/** Relative margin on the bounds: scores are summed in single precision (real), bounds in double. */
const BOUND_MARGIN = 1 + 1e-5

/**
 * The sets of term indexes (into `bounds`) that a chunk must hold all of to reach `theta`, or null when there are
 * more than `maxSets` of them (then a plain OR of the terms, a few at a time, is cheaper to ask for). Every set is a
 * prefix-minimal walk of the terms in decreasing bound order: reaching θ stops it.
 */
export function qualifyingTermSets(bounds: number[], theta: number, maxSets = 64): number[][] | null {
  const order = bounds.map((b, i) => [b * BOUND_MARGIN, i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1])
  const suffix = new Array<number>(order.length + 1).fill(0)
  for (let i = order.length - 1; i >= 0; i--) suffix[i] = suffix[i + 1] + order[i][0]
  const sets: number[][] = []
  const chosen: number[] = []
  let overflow = false
  const walk = (from: number, sum: number) => {
    if (overflow) return
    for (let i = from; i < order.length; i++) {
      // the rest cannot reach θ, even all of them
      if (sum + suffix[i] < theta) return
      chosen.push(order[i][1])
      if (sum + order[i][0] >= theta) {
        sets.push([...chosen].sort((a, b) => a - b))
        if (sets.length > maxSets) overflow = true
      } else {
        walk(i + 1, sum + order[i][0])
      }
      chosen.pop()
      if (overflow) return
    }
  }
  walk(0, 0)
  return overflow ? null : sets
}

/** A tsquery of lexemes quoted so that no character of them is tsquery syntax. */
const quoted = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`

/**
 * The tsquery "all of S₁ or all of S₂ or …" for the given sets of lexemes, factored by common leading terms
 * ('a' & ('b' | 'c' & 'd') | …): the sets come from one walk in one term order, so they share prefixes. The index
 * evaluates the query once for each posting of its terms; the factored tree is a fraction of the flat one's size
 * (at 100,000 chunks the index's share of the statement fell by about half: docs/benchmarks-history.md).
 */
export function setsQuery(sets: string[][]): string {
  const node = (group: string[][]): string => {
    const byHead = new Map<string, string[][]>()
    for (const set of group) byHead.set(set[0], [...(byHead.get(set[0]) ?? []), set.slice(1)])
    const branches = [...byHead].map(([head, tails]) =>
      tails.some(t => t.length === 0) ? quoted(head) : `${quoted(head)} & ${wrap(node(tails), tails)}`,
    )
    return branches.join(' | ')
  }
  const wrap = (q: string, tails: string[][]) => (new Set(tails.map(t => t[0])).size > 1 ? `(${q})` : q)
  return node(sets)
}
