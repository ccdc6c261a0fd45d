// One run's result (the JSON ingest-compare.ts reads back), and the state of the tree it ran on.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { PhaseCost } from './cpu'
import type { ProfileOptions } from './options'
import type { ProfileSummary } from './profile'
import type { SqlVariant } from './sql-experiment'
import type { StatementStat } from './statements'

export interface ProfileResult {
  label: string
  tree: string
  state: string
  machine: string
  nproc: number
  node: string
  load: number[]
  options: ProfileOptions
  docs: number
  chunks: number
  tokens: number
  textMB: number
  concurrency: number
  jobs: number
  dbOpenMs: number
  upsert: PhaseCost & { profile: ProfileSummary; statements: StatementStat[] }
  drain: PhaseCost & { profile: ProfileSummary; statements: StatementStat[] }
  sql?: { rows: number; variants: SqlVariant[]; notes: string[] }
  finishedAt: string
}

/**
 * The tree's commit and, when its sources differ from it, how many files and a short hash of the difference (the
 * diff and the untracked files' contents under lib, app, prisma and package.json), so runs on the same state can be
 * told apart from runs on a tree edited in between. Read-only git.
 */
export function treeState(dir: string): string {
  try {
    const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', maxBuffer: 256 * 2 ** 20 })
    const paths = ['lib', 'app', 'prisma', 'package.json']
    const commit = git('rev-parse', '--short', 'HEAD').trim()
    const changed = git('status', '--porcelain', '--', ...paths).split('\n').filter(Boolean).length
    if (!changed) return commit
    const hash = createHash('sha1').update(git('diff', 'HEAD', '--', ...paths))
    for (const file of git('ls-files', '--others', '--exclude-standard', '--', ...paths).split('\n').filter(Boolean).sort()) {
      hash.update(file).update(fs.readFileSync(path.join(dir, file)))
    }
    return `${commit} + ${changed} uncommitted file${changed > 1 ? 's' : ''} in lib/app/prisma (diff ${hash.digest('hex').slice(0, 7)})`
  } catch {
    return 'unknown'
  }
}
