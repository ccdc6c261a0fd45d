// Text recognition of a datasource's scanned pages or image (OCR): "Reading text: page 3 of 10" while it runs, how
// many pages were read once it has.
import type { Datasource } from './types'

export function OcrProgress({ ds, className }: { ds: Datasource; className?: string }) {
  const pages = ds.ocrPages
  if (!pages) return null
  const running = ds.status === 'running'
  if (!running && pages.done < pages.total) return null
  const text = running
    ? `Reading text: ${pages.done} of ${pages.total} ${pages.total === 1 ? 'page' : 'pages'}`
    : `Text of ${pages.total} ${pages.total === 1 ? 'page' : 'pages'} recognised (OCR)`
  return (
    <div className={className ?? 'text-xs text-muted-foreground'} data-testid="datasource-ocr" role={running ? 'status' : undefined}>
      {text}
      {running && <progress className="ml-2 h-1.5 w-16 align-middle" max={pages.total} value={pages.done} aria-label="Pages read" />}
    </div>
  )
}
