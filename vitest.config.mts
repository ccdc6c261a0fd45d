import path from 'node:path'
import { defineConfig } from 'vitest/config'

// Files that never open the database: run once, in the `pglite` project only.
const WITHOUT_DATABASE = ['tests/architecture.test.ts', 'tests/dashboard-agent-form.test.ts', 'tests/ingest-chunker.test.ts', 'tests/ingest-loaders.test.ts', 'tests/migrations.test.ts']
// The multi-process test needs a production build and a Postgres: scripts/test.mjs runs it after the build.
const MULTIPROCESS = 'tests/multiprocess-*.test.ts'
// Postgres behaviour (several processes on one server, its pool): the `postgres` project only.
const POSTGRES_ONLY = 'tests/postgres-*.test.ts'

export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname),
      // what Next resolves for server code (the package's "react-server" export): lib/db/client.ts is server-only
      'server-only': path.resolve(import.meta.dirname, 'node_modules/server-only/empty.js'),
    },
  },
  test: {
    environment: 'node',
    include: ['tests/**/*.test.ts'],
    exclude: process.env.MULTIPROCESS ? [] : [MULTIPROCESS],
    setupFiles: ['tests/setup.ts'],
    // a migrated embedded database, dumped once a run, that each file's database starts from
    globalSetup: ['tests/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // each file opens its own in-memory PGlite (~0.8 s from the run's migrated template); two at a time fits this 2-core machine
    maxWorkers: 2,
    // every file on the embedded database; with TEST_DATABASE_URL (a PostgreSQL with pgvector) each file that touches
    // the database again on it, in a schema of its own (tests/setup.ts)
    projects: [
      { extends: true, test: { name: 'pglite', env: { TEST_DATABASE: 'pglite' }, exclude: [POSTGRES_ONLY, MULTIPROCESS] } },
      ...(process.env.TEST_DATABASE_URL
        ? [{ extends: true, test: { name: 'postgres', env: { TEST_DATABASE: 'postgres' }, exclude: [...WITHOUT_DATABASE, ...(process.env.MULTIPROCESS ? [] : [MULTIPROCESS])] } }]
        : []),
    ],
  },
})
