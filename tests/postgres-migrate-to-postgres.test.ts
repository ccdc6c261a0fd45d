import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { openPglite, openPostgres, type Database } from '@/lib/db/client'
import { embeddedBlobStore } from '@/lib/db/blob-store'
import type { SqlDriver } from '@/lib/db/sql-driver'

// `npm run migrate-to-postgres -- URL` round-trips a populated embedded DATA_DIR into an empty PostgreSQL (a fresh
// schema of the test server): every row of every table equal on both sides, stored originals moved into the Blob
// table, the embedded data left as it was. Postgres project only (vitest.config.mts).
const ROOT = path.resolve(import.meta.dirname, '..')
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-migrate-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

async function populate(db: Database): Promise<void> {
  const { prisma, sql } = db
  const org = await prisma.organization.create({ data: { name: 'Acme «embedded»' } })
  const user = await prisma.user.create({ data: { email: 'admin@example.com', name: 'Admin', passwordHash: '$argon2id$v=19$fake' } })
  await prisma.membership.create({ data: { organizationId: org.id, userId: user.id, role: 'owner' } })
  await prisma.apiKey.create({ data: { organizationId: org.id, name: 'key', prefix: 'ads_abc', hash: 'h'.repeat(64), lastUsedAt: new Date('2026-01-02T03:04:05.678Z') } })
  await prisma.usageLimit.create({ data: { organizationId: org.id, maxAgentQueries: 42 } })
  const store = await prisma.datastore.create({ data: { organizationId: org.id, name: 'Docs', description: 'with "quotes" and \\ backslashes' } })
  const site = await prisma.datasource.create({ data: { organizationId: org.id, datastoreId: store.id, type: 'web_site', name: 'site', status: 'synched', config: { url: 'https://example.com', tags: ['a', 'b'] } } })
  const page = await prisma.datasource.create({ data: { organizationId: org.id, datastoreId: store.id, groupId: site.id, type: 'web_page', name: 'page', status: 'synched', metadata: { list: [1, 2, { x: null }] } } })
  const file = await prisma.datasource.create({ data: { organizationId: org.id, datastoreId: store.id, type: 'file', name: 'notes.md', status: 'synched' } })
  // 1,200 chunks (more than one batch of the copy), a third with 768 dimensions, the rest with 1536
  await sql.query(
    `INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens, metadata, embedding)
     SELECT 'chunk' || g, $1, $2, CASE WHEN g % 3 = 0 THEN $3 ELSE $4 END, g, 'chunk ' || g || E': pgvector, PGlite et l''été\nline two',
            7 + g, jsonb_build_object('page', g, 'odd key', jsonb_build_array(true)),
            (SELECT array_agg(round(sin(g * 31 + i)::numeric, 6)::real ORDER BY i) FROM generate_series(0, CASE WHEN g % 3 = 0 THEN 767 ELSE 1535 END) i)::vector
       FROM generate_series(0, 1199) g`,
    [org.id, store.id, page.id, file.id],
  )
  const agent = await prisma.agent.create({ data: { organizationId: org.id, name: 'Helper', temperature: 0.3, systemPrompt: 'Be brief.' } })
  await prisma.agentDatastore.create({ data: { agentId: agent.id, datastoreId: store.id } })
  const visitor = await prisma.visitor.create({ data: { organizationId: org.id } })
  const conversation = await prisma.conversation.create({ data: { organizationId: org.id, agentId: agent.id, visitorId: visitor.id, title: 'Hello' } })
  await prisma.message.create({ data: { conversationId: conversation.id, role: 'user', text: 'Hi?' } })
  await prisma.message.create({ data: { conversationId: conversation.id, role: 'assistant', text: 'Hello!', promptTokens: 12, completionTokens: 3 } })
  await prisma.usage.create({ data: { organizationId: org.id, month: '2026-11', agentQueries: 7, datastoreQueries: 2 } })
  // the embedded blob store: files under DATA_DIR/blobs with their content type beside them
  const original = path.join(dir, 'blobs', 'datasources', file.id, 'original')
  fs.mkdirSync(path.dirname(original), { recursive: true })
  fs.writeFileSync(original, Buffer.from([0, 1, 2, 255, 254, ...Buffer.from('# Notes\n')]))
  fs.writeFileSync(`${original}.type`, 'text/markdown')
  // a small original is a row of the embedded "Blob" table; a file left under the same key (the document was longer
  // once) is never read there, and must not replace the row in the copy
  await embeddedBlobStore(path.join(dir, 'blobs'), sql).put(`originals/${site.id}`, new TextEncoder().encode('the row'), 'text/plain')
  fs.mkdirSync(path.join(dir, 'blobs', 'originals'), { recursive: true })
  fs.writeFileSync(path.join(dir, 'blobs', 'originals', site.id), 'a stale file')
}

/** Every table's rows as text, sorted: equal on both sides when the copy is exact (the tsvector included). */
async function snapshot(sql: SqlDriver): Promise<Record<string, string[]>> {
  const tables = await sql.query<{ name: string }>(
    `SELECT relname AS name FROM pg_class WHERE relkind = 'r' AND relnamespace = current_schema()::regnamespace AND relname NOT IN ('_prisma_migrations', 'Blob') ORDER BY 1`,
  )
  const result: Record<string, string[]> = {}
  for (const { name } of tables) {
    result[name] = (await sql.query<{ row: string }>(`SELECT t::text AS row FROM "${name}" t ORDER BY 1`)).map(r => r.row)
  }
  return result
}

function filesOf(root: string): Record<string, string> {
  const entries = fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter(e => e.isFile())
  return Object.fromEntries(entries.map(e => [path.relative(root, path.join(e.parentPath, e.name)), fs.readFileSync(path.join(e.parentPath, e.name)).toString('base64')]))
}

describe.skipIf(!process.env.TEST_SCHEMA_URL)('npm run migrate-to-postgres', () => {
  test('copies a populated embedded DATA_DIR into an empty PostgreSQL exactly, and leaves it untouched', async () => {
    const embedded = await openPglite(dir)
    await populate(embedded)
    const before = await snapshot(embedded.sql)
    await embedded.close()
    const blobsBefore = filesOf(path.join(dir, 'blobs'))

    const url = new URL(process.env.TEST_SCHEMA_URL!)
    url.searchParams.set('schema', `${url.searchParams.get('schema')}_target`)
    const run = () => spawnSync(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), '--conditions=react-server', 'scripts/migrate-to-postgres.ts', url.toString()], {
      cwd: ROOT, env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '', LOG_LEVEL: 'error' }, encoding: 'utf8', timeout: 120_000,
    })
    const first = run()
    expect(first.stderr).toBe('')
    expect(first.status).toBe(0)
    expect(first.stdout).toMatch(/Done: \d+ rows in \d+ tables and 2 stored originals, counts checked/)

    const target = await openPostgres(url.toString())
    try {
      const after = await snapshot(target.sql)
      expect(Object.keys(after)).toEqual(Object.keys(before))
      for (const table of Object.keys(before)) expect({ table, rows: after[table] }).toEqual({ table, rows: before[table] })
      expect(before.Chunk).toHaveLength(1200)
      const blobs = await target.sql.query<{ key: string; contentType: string; data: Buffer }>(`SELECT key, "contentType", data FROM "Blob" ORDER BY key`)
      expect(blobs.map(b => [b.key.split('/')[0], b.contentType, Buffer.from(b.data).toString('base64')])).toEqual([
        ['datasources', 'text/markdown', blobsBefore[path.join('datasources', blobs[0].key.split('/')[1], 'original')]],
        ['originals', 'text/plain', Buffer.from('the row').toString('base64')],
      ])
      // vectors of both sizes are usable
      const [near] = await target.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Chunk" WHERE embedding <=> embedding < 0.0001`)
      expect(near.n).toBe(1200)
      // the tables' triggers, off during the copy, are on again
      const [disabled] = await target.sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal AND t.tgenabled = 'D' AND c.relnamespace = current_schema()::regnamespace`,
      )
      expect(disabled.n).toBe(0)
      // a second run refuses: the target is no longer empty, and nothing changed
      const second = run()
      expect(second.status).toBe(1)
      expect(second.stderr).toContain('not empty')
      expect((await snapshot(target.sql)).Chunk).toHaveLength(1200)
    } finally {
      await target.sql.exec(`DROP SCHEMA "${url.searchParams.get('schema')}" CASCADE`).catch(() => {})
      await target.close()
    }

    // the embedded data is as it was
    expect(filesOf(path.join(dir, 'blobs'))).toEqual(blobsBefore)
    const reopened = await openPglite(dir)
    try {
      expect(await snapshot(reopened.sql)).toEqual(before)
    } finally {
      await reopened.close()
    }
  }, 180_000)
})
