import { createHash } from 'node:crypto'
import fs from 'node:fs'
import type { TenantContext } from '@/lib/domain/tenant'
import { diskPathOf, disposeForm } from '@/lib/http/multipart'
import { config } from '@/lib/config'
import { getBlobStore, originalKey } from '@/lib/db/blob-store'
import { getPrisma } from '@/lib/db/client'
import { IdParam } from '@/lib/http/body'
import { InvalidRequest, PayloadTooLarge, UnsupportedMediaType } from '@/lib/http/errors'
import { toDatasourceResource, type DatasourceResource } from './datasource-resource'
import { getDatasource } from './datasources'
import { findDatastore } from './datastores'
import { findHolders, sha256Hex } from './duplicates'
import { ACCEPTED_FILE_TYPES, resolveFileType, type AcceptedFileType } from '@/lib/domain/file-types'
import { newId } from '@/lib/db/ids'
import { fileKind } from '@/lib/ingest/kinds/file'
import { createQueuedDatasource } from '@/lib/ingest/lifecycle'

// Room in a multipart body for the parts besides the file (type, datastoreId, fileName, custom_id) and the boundaries
const MULTIPART_SLACK_BYTES = 256 * 1024
const MB = 1024 * 1024

export interface FileUpload {
  file: File
  fileName: string
  mimeType: AcceptedFileType
  customId: string | null
  /** From the form (POST /api/datasources); the external endpoint takes it from its path. */
  datastoreId?: string
  /** Removes the upload's file from disk once it is stored (or refused). */
  dispose: () => Promise<void>
}

/** LIMIT_FILE_SIZE_MB, or the organization's own limit when one is set. */
export async function fileSizeLimitBytes(ctx: TenantContext): Promise<number> {
  const prisma = await getPrisma()
  const limits = await prisma.usageLimit.findUnique({ where: { organizationId: ctx.organizationId } })
  return (limits?.maxFileSizeMb ?? config().LIMIT_FILE_SIZE_MB) * MB
}

function tooLarge(limit: number) {
  return new PayloadTooLarge(`The file is larger than the limit of ${Math.round((limit / MB) * 100) / 100} MB`, { limitBytes: limit })
}

function missing(part: string, message = `the "${part}" part is required`) {
  return new InvalidRequest(`Invalid multipart body: ${message}`, [{ path: part, message, code: 'invalid_type' }])
}

function textPart(form: FormData, name: string, { max = 256 } = {}): string | undefined {
  const value = form.get(name)
  if (value === null) return undefined
  if (typeof value !== 'string') throw missing(name, `the "${name}" part must be text, not a file`)
  const text = value.trim()
  if (text.length > max) throw missing(name, `the "${name}" part is longer than ${max} characters`)
  // PostgreSQL text cannot hold NUL: refused here, before anything is stored, rather than a 500 after the original
  if (/[\u0000-\u001f\u007f]/.test(text)) throw missing(name, `the "${name}" part must not contain control characters`)
  return text || undefined
}

/** The name a client gave its file part, without control characters and at most 256 characters long. */
function cleanFileName(name: string | undefined): string {
  return Array.from((name ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim()).slice(0, 256).join('')
}

/**
 * Reads a file upload from the multipart body `readForm` parses (at most maxBytes): 415 unless multipart (or for a file type outside the accepted eight), 413 past the size
 * limit, 400 for a missing or malformed part. `form` says which parts the endpoint requires besides `file`.
 */
export async function readFileUpload(ctx: TenantContext, readForm: (maxBytes: number) => Promise<FormData>, form: 'datasource' | 'external'): Promise<FileUpload> {
  const limit = await fileSizeLimitBytes(ctx)
  let body: FormData
  try {
    body = await readForm(limit + MULTIPART_SLACK_BYTES)
  } catch (error) {
    if (error instanceof PayloadTooLarge) throw tooLarge(limit)
    throw error
  }
  try {
    return fileUploadOf(body, limit, form)
  } catch (error) {
    await disposeForm(body)
    throw error
  }
}

function fileUploadOf(body: FormData, limit: number, form: 'datasource' | 'external'): FileUpload {
  let datastoreId: string | undefined
  if (form === 'datasource') {
    const type = textPart(body, 'type')
    if (!type) throw missing('type', 'the "type" part is required and must be "file"')
    if (type !== 'file') throw missing('type', 'the "type" part must be "file" in a multipart body (web pages and sites are created with JSON)')
    datastoreId = textPart(body, 'datastoreId', { max: 128 })
    if (!datastoreId || !IdParam.safeParse(datastoreId).success) throw missing('datastoreId')
  }
  const file = body.get('file')
  if (file === null) throw missing('file')
  if (typeof file === 'string') throw missing('file', 'the "file" part must be a file (with a filename), not text')
  if (file.size > limit) throw tooLarge(limit)
  const fileName = textPart(body, 'fileName') ?? (cleanFileName(file.name) || 'upload')
  const mimeType = resolveFileType(file.type, [textPart(body, 'fileName'), file.name])
  if (!mimeType) throw new UnsupportedMediaType([...ACCEPTED_FILE_TYPES], file.type || 'application/octet-stream')
  return { file, fileName, mimeType, customId: textPart(body, 'custom_id') ?? null, datastoreId, dispose: () => disposeForm(body) }
}

/** The SHA-256 of an upload, read from disk in pieces when it was streamed there. */
async function sha256Of(file: File): Promise<string> {
  const onDisk = diskPathOf(file)
  if (!onDisk) return sha256Hex(new Uint8Array(await file.arrayBuffer()))
  const hash = createHash('sha256')
  for await (const piece of fs.createReadStream(onDisk)) hash.update(piece as Buffer)
  return hash.digest('hex')
}

/** A created datasource, or the one that already holds the same content (then nothing is stored or indexed). */
export type UploadOutcome = { datasource: DatasourceResource; duplicate: false } | { datasource: DatasourceResource & { duplicate: true }; duplicate: true }

/**
 * Stores the original and creates a `file` datasource, queued. A corrupt or empty file ends in `error` later. A file
 * whose bytes a datasource of this datastore already holds is answered with that datasource, unless allowDuplicates.
 */
export async function createFileDatasource(
  ctx: TenantContext,
  datastoreId: string,
  upload: FileUpload,
  { allowDuplicates = false } = {},
): Promise<UploadOutcome> {
  try {
    return await storeUpload(ctx, datastoreId, upload, allowDuplicates)
  } finally {
    await upload.dispose()
  }
}

async function storeUpload(ctx: TenantContext, datastoreId: string, upload: FileUpload, allowDuplicates: boolean): Promise<UploadOutcome> {
  const store = await findDatastore(ctx, datastoreId)
  const sha256 = await sha256Of(upload.file)
  if (!allowDuplicates) {
    const holder = (await findHolders(store.id, [sha256])).get(sha256)
    if (holder) return { datasource: { ...(await getDatasource(ctx, holder.id)), duplicate: true }, duplicate: true }
  }
  const id = newId()
  const blobs = await getBlobStore()
  const onDisk = diskPathOf(upload.file)
  if (onDisk) await blobs.putFile(originalKey(id), onDisk, upload.mimeType)
  else await blobs.put(originalKey(id), new Uint8Array(await upload.file.arrayBuffer()), upload.mimeType)
  const ds = await createQueuedDatasource({
    id,
    organizationId: ctx.organizationId,
    datastoreId: store.id,
    type: fileKind.type,
    name: upload.fileName,
    config: { fileName: upload.fileName, mimeType: upload.mimeType, size: upload.file.size, sha256 },
    customId: upload.customId,
  })
  return { datasource: toDatasourceResource(ds), duplicate: false }
}
