import { createHash, randomUUID } from 'node:crypto'
import { logger } from '@/lib/logger'
import fs from 'node:fs'
import path from 'node:path'
import { LOCKS } from './advisory-lock'
import type { SqlDriver } from './sql-driver'

const SLOW_MIGRATION_MS = 1000

export interface Migration {
  name: string
  sql: string
}

export class MigrationError extends Error {
  constructor(readonly migration: string, cause: unknown) {
    super(
      `Migration ${migration} failed; nothing of this start's migrations was kept, the database is as it was. ` +
        `Cause: ${cause instanceof Error ? cause.message : String(cause)}`,
    )
    this.name = 'MigrationError'
  }
}

/** prisma/migrations/<timestamp>_<name>/migration.sql, in name order (Prisma's own ordering). */
export function readMigrations(dir = path.join(/*turbopackIgnore: true*/ process.cwd(), 'prisma', 'migrations')): Migration[] {
  if (!fs.existsSync(dir)) throw new Error(`No migrations folder at ${dir}: start the service from the project's root`)
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter(d => d.isDirectory() && fs.existsSync(path.join(dir, d.name, 'migration.sql')))
    .map(d => d.name)
    .sort()
    .map(name => ({ name, sql: fs.readFileSync(path.join(dir, name, 'migration.sql'), 'utf8') }))
}

// The same table Prisma's CLI keeps, so `prisma migrate status` against Postgres agrees with what the app applied.
const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`

/**
 * Applies every migration not yet recorded, each once, in order, recorded as it goes, all in one transaction: a failure
 * rolls the whole run back, so the database is exactly as it was before this start. Returns the names applied.
 */
export async function applyMigrations(driver: SqlDriver, migrations: Migration[] = readMigrations()): Promise<string[]> {
  return driver.transaction(async tx => {
    // the lock first: two processes creating the table at once on an empty Postgres collide in its catalog
    // (`duplicate key value violates unique constraint "pg_type_typname_nsp_index"`), IF NOT EXISTS or not
    if (driver.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCKS.migrations])
    await tx.exec(CREATE_TABLE)
    const rows = await tx.query<{ migration_name: string }>(
      'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    )
    const done = new Set(rows.map(r => r.migration_name))
    const applied: string[] = []
    for (const migration of migrations) {
      if (done.has(migration.name)) continue
      const started = performance.now()
      try {
        await tx.exec(migration.sql)
      } catch (error) {
        throw new MigrationError(migration.name, error)
      }
      // an upgrade's migration may write a large table again (20261127020000: every chunk): the log says what took the time
      const ms = Math.round(performance.now() - started)
      if (ms >= SLOW_MIGRATION_MS) logger.info('migration applied', { migration: migration.name, ms })
      await tx.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
         VALUES ($1, $2, now(), $3, 1)`,
        [randomUUID(), createHash('sha256').update(migration.sql).digest('hex'), migration.name],
      )
      applied.push(migration.name)
    }
    return applied
  })
}
