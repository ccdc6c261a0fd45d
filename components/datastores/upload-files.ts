// Uploading files to a datastore from the browser: which files are accepted (spec §4.5), and one upload with its
// progress (XMLHttpRequest, as fetch reports no upload progress).

import { ApiError } from '@/components/api-client'
import type { Datasource } from './types'

/** The eight accepted MIME types with the extensions a browser may know them by (react-dropzone's `accept`). */
export const ACCEPTED_FILES: Record<string, string[]> = {
  'application/pdf': ['.pdf'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['.docx'],
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': ['.pptx'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'],
  'text/csv': ['.csv'],
  'text/markdown': ['.md', '.markdown'],
  'text/plain': ['.txt'],
  'application/json': ['.json'],
}

export const ACCEPTED_LABEL = 'PDF, Word (.docx), PowerPoint (.pptx), Excel (.xlsx), CSV, Markdown, plain text, JSON'

/**
 * The server's default LIMIT_FILE_SIZE_MB. The API does not expose the limit in force, so the browser checks this
 * default and the server has the last word (a smaller limit set there comes back as a 413 on that file).
 */
export const MAX_FILE_MB = 50
export const MAX_FILE_BYTES = MAX_FILE_MB * 1024 * 1024

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}

function errorFromXhr(xhr: XMLHttpRequest): ApiError {
  let body: { error?: { code?: string; message?: string; details?: unknown } } | undefined
  try {
    body = JSON.parse(xhr.responseText)
  } catch {}
  const message = body?.error?.message || `Upload failed with status ${xhr.status}`
  return new ApiError(message, xhr.status, body?.error?.code, body?.error?.details)
}

/** POST /api/datasources as multipart/form-data; `onProgress` gets 0..1 as the bytes go out. */
export function uploadFile(
  datastoreId: string,
  file: File,
  { onProgress, signal }: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<Datasource> {
  return new Promise((resolve, reject) => {
    const form = new FormData()
    form.append('type', 'file')
    form.append('datastoreId', datastoreId)
    form.append('fileName', file.name)
    form.append('file', file, file.name)

    const xhr = new XMLHttpRequest()
    xhr.open('POST', '/api/datasources')
    xhr.setRequestHeader('accept', 'application/json')
    xhr.upload.onprogress = e => {
      if (e.lengthComputable) onProgress?.(e.loaded / e.total)
    }
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(1)
        try {
          resolve(JSON.parse(xhr.responseText) as Datasource)
        } catch {
          reject(new ApiError('The server answered with something other than JSON', xhr.status))
        }
      } else reject(errorFromXhr(xhr))
    }
    xhr.onerror = () => reject(new ApiError('Could not reach the server. Check your connection and try again.', 0, 'network_error'))
    xhr.onabort = () => reject(new ApiError('Upload cancelled', 0, 'aborted'))
    signal?.addEventListener('abort', () => xhr.abort(), { once: true })
    xhr.send(form)
  })
}
