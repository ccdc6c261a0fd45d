import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { vector } from '@electric-sql/pglite-pgvector'

// A production server of a spec's own (the build `npm test` made, started as `npm start` does), on its own DATA_DIR:
// for a spec that changes what the shared server must keep (a throttled admin), or that looks into the database
// between runs (the embedded database opens in one process at a time, so only while the server is stopped).

const ROOT = path.resolve(import.meta.dirname, '../..')

export class OwnServer {
  private child: ChildProcess | undefined
  constructor(
    readonly port: number,
    readonly dataDir: string,
    private readonly env: Record<string, string>,
  ) {}

  get url() {
    return `http://127.0.0.1:${this.port}`
  }

  async start(): Promise<void> {
    const env = { ...process.env, ...this.env, DATA_DIR: this.dataDir, PORT: String(this.port), HOST: '127.0.0.1', WORKER: 'off', NEXT_TELEMETRY_DISABLED: '1' }
    this.child = spawn(process.execPath, ['scripts/serve.mjs'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] })
    const deadline = Date.now() + 60_000
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) throw new Error(`the server on ${this.port} exited with ${this.child.exitCode}`)
      const up = await fetch(`${this.url}/api/health`).then(r => r.ok, () => false)
      if (up) return
      await new Promise(r => setTimeout(r, 200))
    }
    throw new Error(`the server on ${this.port} did not answer within a minute`)
  }

  /** Sends `signal` (SIGTERM: as a deploy or `docker stop` does) and resolves with the exit code once it exited. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    const child = this.child
    if (!child || child.exitCode !== null) return child?.exitCode ?? null
    return new Promise<number | null>(resolve => {
      child.once('exit', code => resolve(code))
      child.kill(signal)
    })
  }

  /** Runs `work` on the server's database; the server must be stopped. */
  async withDatabase<T>(work: (db: PGlite) => Promise<T>): Promise<T> {
    const db = await PGlite.create(path.join(this.dataDir, 'pgdata'), { extensions: { vector } })
    try {
      return await work(db)
    } finally {
      await db.close()
    }
  }
}
