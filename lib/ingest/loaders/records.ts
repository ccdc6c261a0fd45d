import { TimeSlices } from '../time-slices'

// Rows handled between two looks at the clock (a sheet of 60,000 rows took 0.1–0.2 s at once, session 28)
const ROWS_A_LOOK = 512

/**
 * Table rows as text a reader (and a search) understands: with a header row, each row becomes one paragraph of
 * "Header: value" pairs, so every chunk keeps the meaning of its cells; without one, the cells tab-separated.
 * Large tables let the event loop in every SLICE_MS (the worker shares the web server's).
 */
export async function recordsText(rows: string[][]): Promise<string> {
  const slices = new TimeSlices()
  const nonEmpty: string[][] = []
  for (let i = 0; i < rows.length; i++) {
    const cells = rows[i].map(c => c.trim())
    if (cells.some(c => c.length > 0)) nonEmpty.push(cells)
    if (i % ROWS_A_LOOK === ROWS_A_LOOK - 1 && slices.over) await slices.next()
  }
  if (nonEmpty.length === 0) return ''
  if (nonEmpty.length === 1) return nonEmpty[0].filter(Boolean).join('\t')
  const [header, ...body] = nonEmpty
  const names = header.map((h, i) => h || `Column ${i + 1}`)
  const records: string[] = []
  for (const row of body) {
    records.push(row.map((cell, i) => (cell ? `${names[i] ?? `Column ${i + 1}`}: ${cell}` : '')).filter(Boolean).join('\n'))
    if (records.length % ROWS_A_LOOK === 0 && slices.over) await slices.next()
  }
  return records.join('\n\n')
}
