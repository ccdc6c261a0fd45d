// Helpers of the dashboard's end-to-end specs (e2e/dashboard-*.spec.ts): data made through the API with the
// initial key, real files made in the test, a local web server, and the fake model's behaviour.
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { expect, type APIRequestContext } from '@playwright/test'
import { AlignmentType, Document, Packer, Paragraph, TextRun } from 'docx'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { ADMIN } from './auth'

export const FAKE_MODEL = `http://127.0.0.1:${process.env.E2E_FAKE_MODEL_PORT ?? 3006}`
export const auth = { authorization: `Bearer ${ADMIN.apiKey}` }

let counter = 0
/** A name no other spec uses (the e2e suite shares one server and DATA_DIR). */
export function unique(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${(counter++).toString(36)}`
}

export async function createDatastore(request: APIRequestContext, name = unique('Datastore')) {
  const res = await request.post('/api/datastores', { headers: auth, data: { name } })
  expect(res.status(), await res.text()).toBe(201)
  return (await res.json()) as { id: string; name: string }
}

export async function upsertText(request: APIRequestContext, datastoreId: string, documents: { text: string; name?: string }[]) {
  const res = await request.post(`/api/datastores/upsert/${datastoreId}`, { headers: auth, data: { documents } })
  expect(res.status(), await res.text()).toBe(200)
  return (await res.json()) as { ids: string[] }
}

/** Waits until every datasource of the datastore is synched (the in-process worker syncs them). */
export async function waitUntilSynched(request: APIRequestContext, datastoreId: string, count: number, { allowErrors = false } = {}) {
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/datastores/${datastoreId}/datasources?limit=200`, { headers: auth })
        const page = (await res.json()) as { items: { status: string; errorMessage: string | null }[] }
        const failed = page.items.find(d => d.status === 'error')
        if (failed && !allowErrors) throw new Error(`a datasource failed: ${failed.errorMessage}`)
        return page.items.filter(d => d.status === 'synched').length
      },
      { timeout: 60_000, intervals: [250, 500, 1000] },
    )
    .toBe(count)
}

export async function createAgent(request: APIRequestContext, body: Record<string, unknown>) {
  const res = await request.post('/api/agents', { headers: auth, data: { name: unique('Agent'), ...body } })
  expect(res.status(), await res.text()).toBe(201)
  return (await res.json()) as { id: string; name: string; datastoreIds: string[] }
}

/** Sets the fake model's behaviour: {reply, mode, delayMs, firstTokenDelayMs}; `{}` restores the default. */
export async function fakeModel(request: APIRequestContext, behaviour: Record<string, unknown>) {
  const res = await request.post(`${FAKE_MODEL}/__control`, { data: behaviour })
  expect(res.ok()).toBe(true)
}

let filesDir: string | undefined
/** One folder per worker process for the files a test makes, removed when the process ends. */
function tempDir(): string {
  if (!filesDir) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-e2e-files-'))
    process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }))
    filesDir = dir
  }
  return filesDir
}

/** A real PDF with one page of text. */
export async function makePdf(fileName: string, lines: string[]): Promise<string> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  const page = pdf.addPage([595, 842])
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 20, size: 12, font }))
  const file = path.join(tempDir(), fileName)
  fs.writeFileSync(file, await pdf.save())
  return file
}

/** A real Word document with a paragraph per line. */
export async function makeDocx(fileName: string, lines: string[]): Promise<string> {
  const doc = new Document({
    sections: [{ children: lines.map(line => new Paragraph({ alignment: AlignmentType.LEFT, children: [new TextRun(line)] })) }],
  })
  const file = path.join(tempDir(), fileName)
  fs.writeFileSync(file, await Packer.toBuffer(doc))
  return file
}

export function makeFile(fileName: string, content: string | Buffer): string {
  const file = path.join(tempDir(), fileName)
  fs.writeFileSync(file, content)
  return file
}

/** A web server on 127.0.0.1 (a free port) answering `html` for every path. */
export async function startPageServer(html: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.url === '/robots.txt') {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(html)
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise(resolve => server.close(() => resolve())),
  }
}
