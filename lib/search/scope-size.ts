// How many chunks a scope's datastores held when its BM25 statistics were last read (lib/search/fulltext.ts): a hint
// for the vector ranking's strategy (hybrid-search.ts), never for its results. A scope not seen yet, or grown, is
// walked with the index; a stale count only picks the slower of two exact-enough ways.

const MAX_SCOPES = 1_000
const known = new Map<string, number>()

function keyOf(params: unknown[]): string {
  const [organizationId, datastoreIds] = params as [string, string[]]
  return `${organizationId}:${[...datastoreIds].sort().join(',')}`
}

/** The chunks of the scope's datastores (the scope's first two parameters: organization, datastore ids). */
export function rememberScopeSize(scopeParams: unknown[], chunks: number): void {
  if (known.size >= MAX_SCOPES) known.clear()
  known.set(keyOf(scopeParams), chunks)
}

export function knownScopeSize(scopeParams: unknown[]): number | undefined {
  return known.get(keyOf(scopeParams))
}
