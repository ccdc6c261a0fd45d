// `npm start`: prepare (generate, build when needed), then run `next start` in this process's place. Next's
// instrumentation opens the database, applies migrations, creates the first admin and starts the worker.
import { spawn, spawnSync } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const prepared = spawnSync(process.execPath, ['scripts/prepare.mjs', '--build'], { cwd: root, stdio: 'inherit' })
if (prepared.status !== 0) process.exit(prepared.status ?? 1)

const port = process.env.PORT || '3000'
const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', port], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
