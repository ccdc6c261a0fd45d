import fs from 'node:fs'
import { describe, expect, test } from 'vitest'
import * as datasources from '@/app/api/datasources/route'
import { getBlobStore, originalKey } from '@/lib/db/blob-store'
import { getPrisma } from '@/lib/db/client'
import { uploadsTmpRoot } from '@/lib/http/multipart'
import { expectErrorBody } from './helpers/http'
import { createTenant, type TestTenant } from './helpers/tenants'

// Issue 22, point 6: an upload is streamed to disk as it arrives, never held in memory whole, and refused with 413 as
// soon as it passes the limit (with or without Content-Length). Its temporary file is gone once it is stored or refused.

const MB = 1024 * 1024
const BOUNDARY = '----streamed-upload-test'

/** A multipart body of `size` bytes of file, produced piece by piece (the test never holds it whole either). */
function multipartStream(datastoreId: string, size: number, { cutAt, pauseAt }: { cutAt?: number; pauseAt?: { bytes: number; until: () => Promise<void> } } = {}): ReadableStream<Uint8Array> {
  const head = new TextEncoder().encode(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="type"\r\n\r\nfile\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="datastoreId"\r\n\r\n${datastoreId}\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`,
  )
  const tail = new TextEncoder().encode(`\r\n--${BOUNDARY}--\r\n`)
  const piece = new Uint8Array(256 * 1024).fill(0x61) // "aaaa…"
  let sent = 0
  let stage: 'head' | 'file' | 'tail' | 'done' = 'head'
  return new ReadableStream({
    async pull(controller) {
      if (stage === 'head') return void (controller.enqueue(head), (stage = 'file'))
      if (stage === 'file') {
        if (cutAt !== undefined && sent >= cutAt) return controller.close()
        if (pauseAt && sent >= pauseAt.bytes) {
          const { until } = pauseAt
          pauseAt = undefined
          await until()
        }
        const n = Math.min(piece.byteLength, size - sent)
        controller.enqueue(piece.subarray(0, n))
        sent += n
        if (sent >= size) stage = 'tail'
        return
      }
      if (stage === 'tail') return void (controller.enqueue(tail), (stage = 'done'))
      controller.close()
    },
  })
}

async function upload(tenant: TestTenant, body: ReadableStream<Uint8Array>) {
  const req = new Request('http://localhost/api/datasources', {
    method: 'POST',
    headers: { ...tenant.headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body,
    duplex: 'half',
  } as RequestInit)
  const res = await datasources.POST(req, { params: Promise.resolve({}) })
  return { status: res.status, json: await res.json() }
}

const leftovers = () => (fs.existsSync(uploadsTmpRoot()) ? fs.readdirSync(uploadsTmpRoot()) : [])

describe('uploads are streamed to disk', () => {
  test('a 40 MB file is on disk while it still arrives, is stored whole, and its temporary file is gone', async () => {
    const tenant = await createTenant()
    const prisma = await getPrisma()
    const store = await prisma.datastore.create({ data: { organizationId: tenant.ctx.organizationId, name: 'files' } })
    // halfway, the client waits until the first 10 MB are in a file on disk: a server buffering the body in memory
    // (as it did, three or four copies over) would write nothing before the end, and the upload would never finish
    const onDisk = () => leftovers().flatMap(folder => fs.readdirSync(`${uploadsTmpRoot()}/${folder}`).map(f => fs.statSync(`${uploadsTmpRoot()}/${folder}/${f}`).size))
    const until = async () => {
      const deadline = Date.now() + 15_000
      while (!onDisk().some(size => size >= 10 * MB)) {
        if (Date.now() > deadline) throw new Error('nothing of the upload reached the disk while it was arriving')
        await new Promise(resolve => setTimeout(resolve, 20))
      }
    }
    const res = await upload(tenant, multipartStream(store.id, 40 * MB, { pauseAt: { bytes: 20 * MB, until } }))
    expect(res.status, JSON.stringify(res.json)).toBe(201)
    expect(res.json.config.size).toBe(40 * MB)
    const original = await (await getBlobStore()).get(originalKey(res.json.id))
    expect(original?.data.byteLength).toBe(40 * MB)
    expect(leftovers()).toEqual([])
  }, 120_000)

  test('a body past the file limit without Content-Length is a 413 as soon as it passes, and nothing is left on disk', async () => {
    const tenant = await createTenant()
    const prisma = await getPrisma()
    const store = await prisma.datastore.create({ data: { organizationId: tenant.ctx.organizationId, name: 'files' } })
    process.env.LIMIT_FILE_SIZE_MB = '2'
    try {
      const res = await upload(tenant, multipartStream(store.id, 30 * MB))
      expect(res.status).toBe(413)
      expectErrorBody(res.json, 'payload_too_large')
    } finally {
      delete process.env.LIMIT_FILE_SIZE_MB
    }
    expect(leftovers()).toEqual([])
    expect(await prisma.datasource.count({ where: { datastoreId: store.id } })).toBe(0)
  })

  test('a body cut short is a 400, and nothing is left on disk', async () => {
    const tenant = await createTenant()
    const prisma = await getPrisma()
    const store = await prisma.datastore.create({ data: { organizationId: tenant.ctx.organizationId, name: 'files' } })
    const res = await upload(tenant, multipartStream(store.id, 4 * MB, { cutAt: 1 * MB }))
    expect(res.status).toBe(400)
    expectErrorBody(res.json, 'invalid_request')
    expect(leftovers()).toEqual([])
  })
})
