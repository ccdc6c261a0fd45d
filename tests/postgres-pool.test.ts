import { afterEach, describe, expect, test } from 'vitest'
import { openPostgres } from '@/lib/db/client'

// DATABASE_POOL_SIZE bounds the connections one process opens (README: processes × pool size < max_connections).
describe.skipIf(!process.env.TEST_SCHEMA_URL)('the connection pool of a process on PostgreSQL', () => {
  afterEach(() => { delete process.env.DATABASE_POOL_SIZE })

  async function backendsUnderLoad(queries: number): Promise<number> {
    const db = await openPostgres(process.env.TEST_SCHEMA_URL!)
    try {
      // every query holds its connection for a while: the pool opens as many as it may, up to its size
      const rows = await Promise.all(
        Array.from({ length: queries }, () => db.sql.query<{ pid: number }>('SELECT pg_backend_pid() AS pid, pg_sleep(0.2)')),
      )
      return new Set(rows.map(r => r[0].pid)).size
    } finally {
      await db.close()
    }
  }

  test('DATABASE_POOL_SIZE=3: twelve concurrent queries use at most three connections', async () => {
    process.env.DATABASE_POOL_SIZE = '3'
    expect(await backendsUnderLoad(12)).toBeLessThanOrEqual(3)
  })

  test('the default is ten connections', async () => {
    expect(await backendsUnderLoad(12)).toBe(10)
  })

  test('the connections carry the application name, so pg_stat_activity shows them', async () => {
    const db = await openPostgres(process.env.TEST_SCHEMA_URL!)
    try {
      const [row] = await db.sql.query<{ name: string }>('SELECT current_setting($1) AS name', ['application_name'])
      expect(row.name).toBe('agent-datastore-service')
    } finally {
      await db.close()
    }
  })

})
