// DATABASE_URL as node-postgres and libpq accept it (lib/db/client.ts splitSchema): its `schema` parameter taken out.
import pg from 'pg'
import { describe, expect, test } from 'vitest'
import { splitSchema } from '@/lib/db/client'

describe('DATABASE_URL', () => {
  test('a schema in the URL is taken out of the connection string and must be an identifier', () => {
    expect(splitSchema('postgres://a:b@h:5432/db?schema=s1&sslmode=disable')).toEqual({ connectionString: 'postgres://a:b@h:5432/db?sslmode=disable', schema: 's1' })
    expect(splitSchema('postgres://a:b@h/db')).toEqual({ connectionString: 'postgres://a:b@h/db' })
    expect(splitSchema('postgres://a:b@h/db?schema=public')).toEqual({ connectionString: 'postgres://a:b@h/db' })
    expect(() => splitSchema('postgres://h/db?schema=a";drop')).toThrow(/letters, digits/)
  })

  test("libpq's Unix socket forms (no host) are accepted, with or without a schema, and node-postgres reads the socket's directory", () => {
    for (const url of ['postgres://agents:secret@/agents?host=/var/run/postgresql', 'postgresql:///agents?host=%2Fvar%2Frun%2Fpostgresql']) {
      expect(splitSchema(url)).toEqual({ connectionString: url })
      const { connectionString, schema } = splitSchema(`${url}&schema=tenant_a`)
      expect(schema).toBe('tenant_a')
      const client = new pg.Client({ connectionString }) // parses only; connects on connect()
      expect({ host: client.host, database: client.database }).toEqual({ host: '/var/run/postgresql', database: 'agents' })
    }
  })
})
