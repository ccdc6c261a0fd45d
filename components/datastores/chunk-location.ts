// Where a chunk or a section comes from, in words: "Page 3", "Sheet Prices", "Slide 2", "Page 4 · text recognised"
// (OCR), from the metadata its loader recorded (lib/ingest/loaders).

const PARTS: [key: string, label: string][] = [
  ['page', 'Page'],
  ['slide', 'Slide'],
  ['sheet', 'Sheet'],
]

export function locationOf(metadata: Record<string, unknown> | undefined): string | null {
  if (!metadata) return null
  const found = PARTS.flatMap(([key, label]) => {
    const value = metadata[key]
    return typeof value === 'string' || typeof value === 'number' ? [`${label} ${value}`] : []
  })
  if (metadata.ocr === true) found.push(found.length > 0 ? 'text recognised' : 'Text recognised')
  return found.length > 0 ? found.join(' · ') : null
}
