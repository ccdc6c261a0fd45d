// The file blob store of the embedded database (lib/db/blob-store.ts): a blob and, unless it is plain text, its
// content type in a file beside it.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { fileBlobStore, PLAIN_TEXT } from '@/lib/db/blob-store'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-blobs-'))
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))
const store = fileBlobStore(root)
const text = (s: string) => new TextEncoder().encode(s)

describe('the file blob store', () => {
  test('plain text is stored without a type file and read back as plain text', async () => {
    await store.put('datasources/a/original', text('hello'), PLAIN_TEXT)
    expect(fs.existsSync(path.join(root, 'datasources/a/original.type'))).toBe(false)
    const blob = await store.get('datasources/a/original')
    expect(blob && { text: new TextDecoder().decode(blob.data), contentType: blob.contentType }).toEqual({ text: 'hello', contentType: PLAIN_TEXT })
  })

  test('another type is kept beside the blob, and replaced when the blob becomes plain text', async () => {
    await store.put('datasources/b/original', text('%PDF-1.4'), 'application/pdf')
    expect((await store.get('datasources/b/original'))?.contentType).toBe('application/pdf')
    await store.put('datasources/b/original', text('now text'), PLAIN_TEXT)
    expect((await store.get('datasources/b/original'))?.contentType).toBe(PLAIN_TEXT)
    await store.put('datasources/b/original', text('<p>hi</p>'), 'text/html')
    expect((await store.get('datasources/b/original'))?.contentType).toBe('text/html')
  })

  test('a missing blob is null; removing a prefix removes its blobs and their types', async () => {
    expect(await store.get('datasources/none/original')).toBeNull()
    await store.put('datasources/c/original', text('x'), 'text/csv')
    await store.remove('datasources/c')
    expect(await store.get('datasources/c/original')).toBeNull()
    expect(fs.existsSync(path.join(root, 'datasources/c'))).toBe(false)
  })
})
