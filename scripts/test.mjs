// `npm test`: Vitest (unit and integration on in-memory PGlite, and again on PostgreSQL when TEST_DATABASE_URL names
// one with pgvector), then Playwright end-to-end against a production build in Debian's Chromium and, on PostgreSQL,
// the multi-process test against that build; ends with the failed and the flaky tests named, then one line
// "N passed, N failed" counting all of them (CI shows only a run's last lines). In CI a failed test is run once more,
// in Vitest as in Playwright: one that then passes counts as passed and is listed as flaky.
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
const failures = [] // "file › test: first line of the error"
const flaky = []
const firstLine = (message = '') => message.split('\n').find((line) => line.trim())?.trim().slice(0, 300) ?? ''

if (node(['scripts/prepare.mjs']) !== 0) process.exit(1)

// Vitest with a JSON report, counted into the totals
function vitest(name, args, extraEnv = {}) {
  const vitestFile = path.join(results, `${name}.json`)
  const retriedFile = path.join(results, `${name}-retried.jsonl`)
  fs.rmSync(vitestFile, { force: true })
  fs.rmSync(retriedFile, { force: true })
  const reporters = ['--reporter=default', '--reporter=json', `--outputFile.json=${vitestFile}`, '--reporter=./tests/helpers/retried-reporter.ts']
  const retry = process.env.CI ? ['--retry=1'] : []
  const status = node(['node_modules/vitest/vitest.mjs', 'run', ...args, ...retry, ...reporters], { ...extraEnv, VITEST_RETRIED_FILE: retriedFile })
  const report = readJson(vitestFile)
  if (report) {
    passed += report.numPassedTests
    failed += report.numFailedTests
    skipped += report.numPendingTests + report.numTodoTests
    for (const file of report.testResults) {
      const where = path.relative(root, file.name)
      for (const test of file.assertionResults) if (test.status === 'failed') failures.push(`${where} › ${test.fullName}: ${firstLine(test.failureMessages[0])}`)
      if (file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed')) failures.push(`${where}: ${firstLine(file.message)}`)
    }
  }
  const retried = fs.existsSync(retriedFile) ? fs.readFileSync(retriedFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)) : []
  for (const test of retried) flaky.push(`${test.file} › ${test.name} [${test.project}]`)
  // a crash that left no report, or failed files with no failed test (an import error), still counts as a failure
  if (status !== 0 && (!report || report.numFailedTests === 0)) failed += Math.max(1, report?.numFailedTestSuites ?? 1)
}

// Playwright's report nests suites by file and describe; a test's status is expected, unexpected, flaky or skipped
function listPlaywright(report) {
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const where = `e2e/${spec.file}:${spec.line} › ${spec.title}`
        if (test.status === 'flaky') flaky.push(where)
        if (test.status === 'unexpected') failures.push(`${where}: ${firstLine(test.results.at(-1)?.errors?.[0]?.message)}`)
      }
    }
    for (const child of suite.suites ?? []) walk(child)
  }
  for (const suite of report.suites ?? []) walk(suite)
  for (const error of report.errors ?? []) failures.push(`playwright: ${firstLine(error.message)}`)
}

const postgres = process.env.TEST_DATABASE_URL
const notes = []
if (!postgres) {
  notes.push('PostgreSQL half skipped (no TEST_DATABASE_URL): run `TEST_DATABASE_URL=postgres://… npm test` with a PostgreSQL 15+ where CREATE EXTENSION vector works, or `bash .ci/run`')
}

const only = process.argv[2] // "unit" | "e2e" | undefined for both
if (only !== 'e2e') vitest('vitest', only === 'unit' ? process.argv.slice(3) : []) // `npm run test:unit -- tests/x.test.ts`

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
      if (status !== 0 && report.stats.unexpected === 0) failed += 1
      listPlaywright(report)
    } else if (status !== 0) failed += 1
    // several web processes (this build) and workers on one PostgreSQL, with faults
    if (postgres) vitest('multiprocess', ['--project', 'postgres', 'tests/multiprocess-'], { MULTIPROCESS: '1' })
  }
}

for (const note of notes) console.log(`\n${note}`)
if (flaky.length) console.log(`\nFlaky (failed, then passed on the retry):\n${flaky.map((line) => `  ${line}`).join('\n')}`)
if (failures.length) console.log(`\nFailed:\n${failures.map((line) => `  ${line}`).join('\n')}`)

console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}${flaky.length ? `, ${flaky.length} of the passed flaky` : ''}`)
process.exit(failed > 0 ? 1 : 0)
