import fs from 'node:fs'
import path from 'node:path'

export class DataDirLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `Another process (pid ${pid}) is using the embedded database in ${dir}. ` +
        `Two processes on one DATA_DIR would silently lose rows, so this one will not start. ` +
        `Stop the other process, or give this one its own DATA_DIR, or use DATABASE_URL (PostgreSQL) to run several.`,
    )
    this.name = 'DataDirLockedError'
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Takes DATA_DIR for this process: a lock file created exclusively holds our pid; a lock whose pid is gone (a crash)
 * is taken over. Released by the function returned (the database's close) or when the process exits.
 */
export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true })
  const lockPath = path.join(dir, 'LOCK')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' })
      const release = () => {
        process.off('exit', release)
        try {
          if (fs.readFileSync(lockPath, 'utf8') === String(process.pid)) fs.unlinkSync(lockPath)
        } catch {}
      }
      process.once('exit', release)
      return release
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const holder = Number(fs.readFileSync(lockPath, 'utf8'))
      if (holder === process.pid) return () => {}
      if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) throw new DataDirLockedError(dir, holder)
      fs.rmSync(lockPath, { force: true })
    }
  }
  throw new Error(`Could not take the lock ${lockPath}`)
}
