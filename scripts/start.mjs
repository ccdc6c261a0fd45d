// `npm start`: prepare (generate, build when needed), then run the server (scripts/serve.mjs: Next's handler behind
// node:http). Next's instrumentation opens the database, applies migrations, creates the first admin and starts the
// worker.
import { spawn, spawnSync } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const prepared = spawnSync(process.execPath, ['scripts/prepare.mjs', '--build'], { cwd: root, stdio: 'inherit' })
if (prepared.status !== 0) process.exit(prepared.status ?? 1)

const child = spawn(process.execPath, ['scripts/serve.mjs'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
