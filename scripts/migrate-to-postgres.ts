// `npm run migrate-to-postgres -- postgres://user:pass@host:5432/db`: copies the embedded database of DATA_DIR
// (organizations, users, keys, datastores, datasources, chunks with their embeddings, agents, conversations, usage,
// webhooks: every table) and its stored originals (DATA_DIR/blobs, into the Blob table) into an empty PostgreSQL
// with pgvector, checks every table's count, and leaves DATA_DIR as it was. Stop the service first: DATA_DIR's lock
// makes this refuse while it runs. Then start the service with DATABASE_URL set to the same URL.
import { config, dataDir } from '@/lib/config'
import { copyDatabase } from '@/lib/db/copy-database'
import { openPglite, openPostgres } from '@/lib/db/client'
import path from 'node:path'
import fs from 'node:fs'

async function main() {
  const url = process.argv[2]
  if (!url || !/^postgres(ql)?:\/\//.test(url)) {
    console.error('usage: npm run migrate-to-postgres -- postgres://user:pass@host:5432/db   (DATA_DIR says which embedded database to copy)')
    process.exit(2)
  }
  const dir = dataDir()
  if (!fs.existsSync(path.join(dir, 'pgdata'))) throw new Error(`no embedded database in ${dir} (set DATA_DIR)`)
  console.log(`Copying the embedded database of ${dir} (DATA_DIR) into ${url.replace(/\/\/[^@]*@/, '//…@')}`)
  // the embedded database is opened as `npm start` would (its migrations brought up to date), then only read
  const source = await openPglite(dir)
  const target = await openPostgres(url).catch(async error => { await source.close(); throw error })
  try {
    const report = await copyDatabase(source, target, path.join(dir, 'blobs'), line => console.log(`  ${line}`))
    const rows = report.tables.reduce((n, t) => n + t.rows, 0)
    console.log(`Done: ${rows} rows in ${report.tables.length} tables and ${report.blobs} stored originals, counts checked.`)
    console.log(`DATA_DIR is untouched. Start the service with DATABASE_URL=${config().DATABASE_URL === url ? 'this URL (already set)' : '<that URL>'}.`)
  } finally {
    await target.close()
    await source.close()
  }
}

main().catch(error => {
  console.error(`\nmigrate-to-postgres failed, the target database is as it was:\n  ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
