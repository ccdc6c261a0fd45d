// A Vitest reporter for `npm test` (scripts/test.mjs): writes, one JSON line each, the tests that passed only after a
// retry (CI retries a failed test once, as Playwright does), so the run's last lines name its flaky tests. Vitest's
// JSON report counts such a test as passed and does not say it was retried.
import fs from 'node:fs'
import path from 'node:path'
import type { Reporter, TestCase } from 'vitest/node'

export default class RetriedReporter implements Reporter {
  private readonly file = process.env.VITEST_RETRIED_FILE

  onTestCaseResult(testCase: TestCase) {
    const retries = testCase.diagnostic()?.retryCount ?? 0
    if (!this.file || retries === 0 || testCase.result().state !== 'passed') return
    const line = { project: testCase.project.name, file: path.relative(process.cwd(), testCase.module.moduleId), name: testCase.fullName, retries }
    fs.appendFileSync(this.file, `${JSON.stringify(line)}\n`)
  }
}
