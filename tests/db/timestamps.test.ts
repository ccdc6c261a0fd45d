import { afterEach, beforeEach, expect, test } from 'vitest'
import { getDatabase } from '@/lib/db/client'

// A `timestamp` column holds UTC digits (Prisma writes them so): plain SQL reads them as UTC on either database, in
// and out of transactions, whatever the server's time zone. Read as local time, a server outside UTC was off by its
// offset (the inbox's cursor then paged forever).

const zone = process.env.TZ
beforeEach(() => { process.env.TZ = 'America/New_York' })
afterEach(() => { if (zone === undefined) delete process.env.TZ; else process.env.TZ = zone })

const STORED = `SELECT '2026-01-02 03:04:05.678'::timestamp AS at, NULL::timestamp AS never, 'infinity'::timestamp AS always`
const expected = { at: new Date('2026-01-02T03:04:05.678Z'), never: null }

test('a timestamp read in plain SQL is the UTC time it holds', async () => {
  const { sql } = await getDatabase()
  expect(new Date(2026, 0, 2, 3).toISOString()).toBe('2026-01-02T08:00:00.000Z') // the zone is in force
  expect(await sql.query(STORED)).toMatchObject([expected])
  expect(await sql.transaction(tx => tx.query(STORED))).toMatchObject([expected])
  expect(await sql.queryWithSettings('SET LOCAL enable_seqscan = off', STORED)).toMatchObject([expected])
})

test('a time written as toISOString() reads back as the same time', async () => {
  const { sql } = await getDatabase()
  const now = new Date()
  const [row] = await sql.query<{ at: Date }>(`SELECT $1::timestamp AS at`, [now.toISOString()])
  expect(row.at).toEqual(now)
})

test('a Date passed as a parameter is written as the UTC time it is, on either database', async () => {
  const { sql } = await getDatabase()
  const at = new Date('2026-03-04T05:06:07.089Z')
  const [row] = await sql.query<{ at: Date; text: string }>(`SELECT $1::timestamp AS at, $1::timestamp::text AS text`, [at])
  expect(row.text).toBe('2026-03-04 05:06:07.089')
  expect(row.at).toEqual(at)
  const [inTransaction] = await sql.transaction(tx => tx.query<{ text: string }>(`SELECT $1::timestamp::text AS text`, [at]))
  expect(inTransaction.text).toBe('2026-03-04 05:06:07.089')
})
