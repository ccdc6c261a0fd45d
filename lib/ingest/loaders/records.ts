/**
 * Table rows as text a reader (and a search) understands: with a header row, each row becomes one paragraph of
 * "Header: value" pairs, so every chunk keeps the meaning of its cells; without one, the cells tab-separated.
 */
export function recordsText(rows: string[][]): string {
  const nonEmpty = rows.map(r => r.map(c => c.trim())).filter(r => r.some(c => c.length > 0))
  if (nonEmpty.length === 0) return ''
  if (nonEmpty.length === 1) return nonEmpty[0].filter(Boolean).join('\t')
  const [header, ...body] = nonEmpty
  const names = header.map((h, i) => h || `Column ${i + 1}`)
  return body
    .map(row =>
      row
        .map((cell, i) => (cell ? `${names[i] ?? `Column ${i + 1}`}: ${cell}` : ''))
        .filter(Boolean)
        .join('\n'),
    )
    .join('\n\n')
}
