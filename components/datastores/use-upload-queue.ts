'use client'

import * as React from 'react'
import type { FileRejection } from 'react-dropzone'
import { useQueryClient } from '@tanstack/react-query'
import { errorMessage } from '@/components/api-client'
import { uploadFile } from './datastores-api'
import { datasourcesQueryKey } from './types'
import { ACCEPTED_LABEL } from './upload-files'
import type { UploadItem } from './upload-list'

/** How many files go up at once; the rest wait their turn. */
const PARALLEL_UPLOADS = 3

let nextKey = 0

function refusalReason(rejection: FileRejection, maxFileMb: number): string {
  const codes = rejection.errors.map(e => e.code)
  if (codes.includes('file-invalid-type')) return `Not an accepted type. Accepted: ${ACCEPTED_LABEL}.`
  if (codes.includes('file-too-large')) return `Larger than ${maxFileMb} MB.`
  return rejection.errors.map(e => e.message).join('; ')
}

/**
 * The dropzone's uploads: `add` lists the files dropped (the refused ones with their reason) and queues the accepted;
 * at most PARALLEL_UPLOADS go up at once, each with its own progress, and the datasources table is refreshed as each
 * one lands.
 */
export function useUploadQueue(datastoreId: string, maxFileMb: number) {
  const [items, setItems] = React.useState<UploadItem[]>([])
  const files = React.useRef(new Map<string, File>())
  const queue = React.useRef<string[]>([])
  const running = React.useRef(0)
  const queryClient = useQueryClient()

  const update = React.useCallback((key: string, patch: Partial<UploadItem>) => {
    setItems(list => list.map(i => (i.key === key ? { ...i, ...patch } : i)))
  }, [])

  // starts waiting uploads while fewer than PARALLEL_UPLOADS are under way; each one that ends starts the next
  const pump = React.useCallback(
    function pumpUploads() {
      while (running.current < PARALLEL_UPLOADS && queue.current.length > 0) {
        const key = queue.current.shift()!
        const file = files.current.get(key)
        if (!file) continue
        running.current += 1
        update(key, { state: 'uploading' })
        void uploadFile(datastoreId, file, { onProgress: p => update(key, { progress: p }) })
          .then(({ duplicate, ...datasource }) => {
            update(key, { state: 'done', progress: 1, datasource, duplicate: !!duplicate })
            void queryClient.invalidateQueries({ queryKey: datasourcesQueryKey(datastoreId) })
          })
          .catch(error => update(key, { state: 'failed', message: errorMessage(error) }))
          .finally(() => {
            running.current -= 1
            files.current.delete(key)
            pumpUploads()
          })
      }
    },
    [datastoreId, queryClient, update],
  )

  const add = React.useCallback(
    (accepted: File[], rejected: FileRejection[]) => {
      const added: UploadItem[] = []
      for (const file of accepted) {
        const key = `u${nextKey++}`
        files.current.set(key, file)
        queue.current.push(key)
        added.push({ key, name: file.name, size: file.size, state: 'queued', progress: 0 })
      }
      for (const r of rejected) {
        added.push({ key: `u${nextKey++}`, name: r.file.name, size: r.file.size, state: 'refused', progress: 0, message: refusalReason(r, maxFileMb) })
      }
      setItems(list => [...added, ...list])
      if (accepted.length > 0) pump()
    },
    [pump, maxFileMb],
  )

  const clearFinished = React.useCallback(() => setItems(list => list.filter(i => i.state === 'queued' || i.state === 'uploading')), [])

  return { items, add, clearFinished }
}
