'use client'

import * as React from 'react'
import { useDropzone, type FileRejection } from 'react-dropzone'
import { Upload, X } from 'lucide-react'
import { toast } from 'sonner'
import { Button, buttonVariants } from '@/components/ui/button'
import { useServerLimits } from '@/components/layout/server-limits'
import { cn } from '@/lib/utils'
import { ACCEPTED_FILES, ACCEPTED_LABEL, bytesOfMb } from './upload-files'
import { UploadList, type UploadItem } from './upload-list'
import { useUploadQueue } from './use-upload-queue'

/** How the uploads are going, "Clear finished" once some are, and each upload. */
function UploadProgress({ items, onClearFinished }: { items: UploadItem[]; onClearFinished: () => void }) {
  const finished = items.filter(i => i.state === 'done' || i.state === 'failed' || i.state === 'refused').length
  const uploading = items.some(i => i.state === 'uploading' || i.state === 'queued')
  return (
    <div className="grid gap-2">
      <div className="flex items-center justify-between">
        <p className="text-sm text-muted-foreground" role="status">
          {uploading ? `Uploading ${items.filter(i => i.state === 'uploading' || i.state === 'queued').length} of ${items.length}…` : `${finished} file${finished === 1 ? '' : 's'} handled`}
        </p>
        {finished > 0 && (
          <Button type="button" variant="ghost" size="sm" onClick={onClearFinished}>
            <X aria-hidden />
            Clear finished
          </Button>
        )}
      </div>
      <UploadList items={items} />
    </div>
  )
}

function toastRefusals(rejected: FileRejection[], maxFileMb: number) {
  if (rejected.length === 0) return
  toast.error(rejected.length === 1 ? `“${rejected[0].file.name}” was refused` : `${rejected.length} files were refused`, {
    description: `Accepted: ${ACCEPTED_LABEL}, up to ${maxFileMb} MB each.`,
  })
}

/**
 * Drop many files at once: each is checked (type, and size against the server's limit) before it leaves, then
 * uploaded with its own progress.
 */
export function FileDropzone({ datastoreId }: { datastoreId: string }) {
  const { maxFileMb } = useServerLimits()
  const uploads = useUploadQueue(datastoreId, maxFileMb)
  const { add } = uploads
  const onDrop = React.useCallback(
    (accepted: File[], rejected: FileRejection[]) => {
      add(accepted, rejected)
      toastRefusals(rejected, maxFileMb)
    },
    [add, maxFileMb],
  )
  const { getRootProps, getInputProps, isDragActive, isDragReject } = useDropzone({
    onDrop,
    accept: ACCEPTED_FILES,
    maxSize: bytesOfMb(maxFileMb),
    multiple: true,
    noClick: false,
  })
  const prompt = isDragReject ? 'Some of these files are not accepted' : isDragActive ? 'Drop the files to upload them' : 'Drop files here, or click to choose'

  return (
    <div className="grid gap-3">
      <div>
        {/* outside the zone: a file input inside a role=button is a nested interactive control */}
        <input {...getInputProps({ 'aria-label': 'Choose files to upload' })} data-testid="dropzone-input" />
        <div
          {...getRootProps({
            role: 'button',
            // no aria-label: the name is the zone's whole visible text (the prompt, the accepted types and the size
            // limit), as WCAG 2.5.3 asks (a label of the prompt alone left the rest of what it shows out of its name)
          })}
          data-testid="dropzone"
          className={cn(
            'flex cursor-pointer flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed px-6 py-8 text-center transition-colors outline-none',
            'hover:border-ring/60 hover:bg-muted/40 focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50',
            isDragActive && 'border-ring bg-muted/60',
            isDragReject && 'border-destructive bg-destructive/5',
          )}
        >
          <span className="flex size-10 items-center justify-center rounded-full bg-muted">
            <Upload className="size-5 text-muted-foreground" aria-hidden />
          </span>
          <p className="text-sm font-medium">{prompt}</p>
          <p className="max-w-md text-xs text-muted-foreground">
            {ACCEPTED_LABEL}. Up to {maxFileMb} MB each; many at once.
          </p>
          {/* the whole zone is the button (Enter or Space opens the file chooser); this only looks like one */}
          <span aria-hidden className={cn(buttonVariants({ variant: 'outline', size: 'sm' }), 'mt-1')}>
            Choose files
          </span>
        </div>
      </div>

      {uploads.items.length > 0 && <UploadProgress items={uploads.items} onClearFinished={uploads.clearFinished} />}
    </div>
  )
}
