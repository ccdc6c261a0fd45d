// `npm ci` on the oldest Node the README promises (issue 15, defect 10): any package of the lock file that wants a
// newer Node (an EBADENGINE warning) is named in the README's quick start, which says why it is harmless.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { describe, expect, test } from 'vitest'

const root = path.resolve(__dirname, '..')
// npm's own range semantics (semver is installed with the toolchain; it has no type declarations here)
const semver = createRequire(import.meta.url)('semver') as { minVersion(range: string): { version: string } | null; satisfies(version: string, range: string): boolean }
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'))
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8')

describe('Node engines', () => {
  test('the README names every package that warns EBADENGINE on the oldest supported Node, and that Node', () => {
    const oldest = semver.minVersion(pkg.engines.node)!.version
    const quickStart = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('## Tests'))
    expect(quickStart).toContain(`Node.js ${oldest.replace(/\.0$/, '')}`)
    const warning = Object.entries(lock.packages as Record<string, { engines?: { node?: string }; version: string }>)
      .filter(([name]) => name && fs.existsSync(path.join(root, name)))
      .filter(([, p]) => typeof p.engines?.node === 'string' && !semver.satisfies(oldest, p.engines.node))
      .map(([name]) => name.replace(/^.*node_modules\//, ''))
    for (const name of new Set(warning)) expect(quickStart, `${name} wants a newer Node than ${oldest}`).toContain(`\`${name}\``)
  })
})
