// `npm test`: Vitest (unit and integration on in-memory PGlite, and again on PostgreSQL when TEST_DATABASE_URL names
// one with pgvector), then Playwright end-to-end against a production build in Debian's Chromium and, on PostgreSQL,
// the multi-process test against that build; ends with one line "N passed, N failed" counting all of them.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const results = path.join(root, 'test-results')
fs.mkdirSync(results, { recursive: true })
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' }
const node = (args, extraEnv = {}) => spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...env, ...extraEnv } }).status

function readJson(file) {
  try { return JSON.parse(fs.readFileSync(file, 'utf8')) } catch { return null }
}

let passed = 0
let failed = 0
let skipped = 0

if (node(['scripts/prepare.mjs']) !== 0) process.exit(1)

// Vitest with a JSON report, counted into the totals
function vitest(name, args, extraEnv = {}) {
  const vitestFile = path.join(results, `${name}.json`)
  fs.rmSync(vitestFile, { force: true })
  const status = node(['node_modules/vitest/vitest.mjs', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${vitestFile}`], extraEnv)
  const report = readJson(vitestFile)
  if (report) {
    passed += report.numPassedTests
    failed += report.numFailedTests
    skipped += report.numPendingTests + report.numTodoTests
  }
  // a crash that left no report, or failed files with no failed test (an import error), still counts as a failure
  if (status !== 0 && (!report || report.numFailedTests === 0)) failed += Math.max(1, report?.numFailedTestSuites ?? 1)
}

const postgres = process.env.TEST_DATABASE_URL
const notes = []
if (!postgres) {
  notes.push('PostgreSQL half skipped (no TEST_DATABASE_URL): run `TEST_DATABASE_URL=postgres://… npm test` with a PostgreSQL 15+ where CREATE EXTENSION vector works, or `bash .ci/run`')
}

const only = process.argv[2] // "unit" | "e2e" | undefined for both
if (only !== 'e2e') vitest('vitest', [])

if (only !== 'unit') {
  if (node(['scripts/prepare.mjs', '--build']) !== 0) {
    failed += 1
  } else {
    const pwFile = path.join(results, 'playwright.json')
    fs.rmSync(pwFile, { force: true })
    const status = node(['node_modules/@playwright/test/cli.js', 'test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: pwFile })
    const report = readJson(pwFile)
    if (report?.stats) {
      passed += report.stats.expected + report.stats.flaky
      failed += report.stats.unexpected
      skipped += report.stats.skipped
      if (status !== 0 && report.stats.unexpected === 0) failed += 1 + (report.errors?.length ? 0 : 0)
    } else if (status !== 0) failed += 1
    // several web processes (this build) and workers on one PostgreSQL, with faults
    if (postgres) vitest('multiprocess', ['--project', 'postgres', 'tests/multiprocess-'], { MULTIPROCESS: '1' })
  }
}

for (const note of notes) console.log(`\n${note}`)

console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
process.exit(failed > 0 ? 1 : 0)
