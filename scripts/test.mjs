// `npm test`: Vitest (unit and integration on in-memory PGlite), then Playwright end-to-end against a production
// build in Debian's Chromium; ends with one line "N passed, N failed" counting both suites.
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

const only = process.argv[2] // "unit" | "e2e" | undefined for both
if (only !== 'e2e') {
  const vitestFile = path.join(results, 'vitest.json')
  fs.rmSync(vitestFile, { force: true })
  const status = node(['node_modules/vitest/vitest.mjs', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestFile}`])
  const report = readJson(vitestFile)
  if (report) {
    passed += report.numPassedTests
    failed += report.numFailedTests
    skipped += report.numPendingTests + report.numTodoTests
  }
  // a crash that left no report, or failed files with no failed test (an import error), still counts as a failure
  if (status !== 0 && (!report || report.numFailedTests === 0)) failed += Math.max(1, report?.numFailedTestSuites ?? 1)
}

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
  }
}

console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
process.exit(failed > 0 ? 1 : 0)
