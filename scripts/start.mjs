// `npm start`: prepare (generate, build when needed: a child process, gone once done), then become the server
// (scripts/serve.mjs: Next's handler behind node:http) in this same process, so no wrapper stays resident beside it
// (issue 28: a spawned server left this process, ~50 MB, waiting for it). Next's instrumentation opens the database,
// applies migrations, creates the first admin and starts the worker.
import { spawnSync } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const prepared = spawnSync(process.execPath, ['scripts/prepare.mjs', '--build'], { cwd: root, stdio: 'inherit' })
if (prepared.status !== 0) process.exit(prepared.status ?? 1)

process.env.NEXT_TELEMETRY_DISABLED = '1'
process.chdir(root)
await import('./serve.mjs')
