// Makes the tree runnable: the Prisma client generated from the schema, and (with --build) a production build of the
// app when there is none or the sources changed since. `npm start`, `npm test` and `npm run build` call it, so a
// fresh clone needs nothing but `npm ci` first.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const env = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? '/bin/true', NEXT_TELEMETRY_DISABLED: '1' }

function newestMtime(entries) {
  let newest = 0
  const walk = p => {
    let stat
    try { stat = fs.statSync(p) } catch { return }
    if (stat.isDirectory()) {
      if (['node_modules', '.next', 'generated', 'data'].includes(path.basename(p))) return
      for (const e of fs.readdirSync(p)) walk(path.join(p, e))
    } else newest = Math.max(newest, stat.mtimeMs)
  }
  for (const e of entries) walk(path.join(root, e))
  return newest
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, env, stdio: 'inherit' })
  if (r.status !== 0) process.exit(r.status ?? 1)
}

function mtime(p) {
  try { return fs.statSync(path.join(root, p)).mtimeMs } catch { return 0 }
}

const client = 'lib/generated/prisma/client.ts'
if (mtime(client) < newestMtime(['prisma/schema.prisma', 'package-lock.json'])) {
  run(process.execPath, ['node_modules/prisma/build/index.js', 'generate'])
}

const force = process.argv.includes('--force-build')
if (process.argv.includes('--build') || force) {
  const sources = ['app', 'components', 'lib', 'public', 'prisma', 'instrumentation.ts', 'proxy.ts', 'next.config.js', 'postcss.config.mjs', 'package-lock.json', 'tsconfig.json']
  if (force || mtime('.next/BUILD_ID') < newestMtime(sources)) {
    console.log('Building the app (next build)…')
    run(process.execPath, ['node_modules/next/dist/bin/next', 'build'])
  }
}
