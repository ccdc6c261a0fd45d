// Writes that ride along in another statement as data-modifying WITH queries (issue 28): the row a question stores,
// the webhook events it tells and the usage it counts go to the database in one exchange, and are stored together
// or not at all. PostgreSQL runs every data-modifying WITH once, to completion, whether or not the main query reads it.

/** A data-modifying statement (INSERT, UPDATE… without RETURNING unless read), its parameters numbered from `first`. */
export type StatementPart = (first: number) => { sql: string; params: unknown[] }

/** The parts as `name AS (…)` WITH queries after the statement's own parameters (`params`), with all parameters. */
export function withParts(params: unknown[], parts: Record<string, StatementPart | undefined>): { ctes: string; params: unknown[] } {
  const all = [...params]
  const ctes: string[] = []
  for (const [name, part] of Object.entries(parts)) {
    if (!part) continue
    const built = part(all.length + 1)
    ctes.push(`${name} AS (${built.sql})`)
    all.push(...built.params)
  }
  return { ctes: ctes.join(',\n'), params: all }
}
