// The time inside PGlite per SQL statement: PostgreSQL's main loop on each batch of protocol messages, timed.
export interface StatementStat { sql: string; calls: number; ms: number }

export interface StatementTimer {
  /** Starts collecting into a new table (undefined: stops). */
  collect(into: Map<string, StatementStat> | undefined): void
}

const decoder = new TextDecoder()

/** The SQL of a frontend message batch: the query of its Parse ('P') or simple Query ('Q') message, if any. */
function statementOf(message: Uint8Array): string | null {
  let offset = 0
  while (offset + 5 <= message.length) {
    const type = message[offset]
    const length = ((message[offset + 1] << 24) | (message[offset + 2] << 16) | (message[offset + 3] << 8) | message[offset + 4]) >>> 0
    const body = message.subarray(offset + 5, offset + 1 + length)
    if (type === 0x51 /* Q */) return decoder.decode(body.subarray(0, Math.max(0, body.indexOf(0))))
    if (type === 0x50 /* P */) {
      const nameEnd = body.indexOf(0)
      const rest = body.subarray(nameEnd + 1)
      return decoder.decode(rest.subarray(0, Math.max(0, rest.indexOf(0))))
    }
    if (length < 4) break
    offset += 1 + length
  }
  return null
}

/** A statement's text made short and stable: placeholders, VALUES lists and Prisma's qualified names folded. */
export function statementKey(sql: string): string {
  return sql
    .replace(/\s+/g, ' ')
    .replace(/"public"\./g, '')
    .replace(/"(\w+)"\."(\w+)"/g, '$2')
    .replace(/\$\d+/g, '$')
    .replace(/(\([^()]*\))(, \([^()]*\))+/g, '$1, …')
    .replace(/(\$(::\w+(\[\])?)?, ){3,}/g, '$, …, ')
    .trim()
    .slice(0, 160)
}

/**
 * Wraps PGlite's execProtocolRawSync (PostgreSQL's main loop on one batch of protocol messages, synchronous: the
 * WebAssembly and its calls into the Emscripten file system) to time each call, per statement. The call is
 * synchronous on the main thread, so its wall time is that thread's CPU, plus any time the OS gave another process
 * meanwhile (on a loaded machine). Everything else PGlite does (parsing results into rows, serialising parameters)
 * is outside. Returns null when this PGlite has no such method.
 */
export async function timeStatements(): Promise<StatementTimer | null> {
  const { PGlite } = (await import('@electric-sql/pglite')) as unknown as { PGlite: { prototype: Record<string, unknown> } }
  const proto = PGlite.prototype
  const original = proto.execProtocolRawSync as ((this: unknown, message: Uint8Array) => Uint8Array) | undefined
  if (typeof original !== 'function') return null
  let into: Map<string, StatementStat> | undefined
  let last = '(unknown)'
  proto.execProtocolRawSync = function benchStatementTimer(this: unknown, message: Uint8Array) {
    if (!into) return original.call(this, message)
    const sql = statementOf(message)
    if (sql !== null) last = sql ? statementKey(sql) : '(empty)'
    const table = into
    // performance.now(), not process.cpuUsage(): a getrusage call costs ~20 µs here, and a tree making more calls
    // would pay more for the measure itself
    const started = performance.now()
    try {
      return original.call(this, message)
    } finally {
      const entry = table.get(last) ?? { sql: last, calls: 0, ms: 0 }
      entry.calls++
      entry.ms += performance.now() - started
      table.set(last, entry)
    }
  }
  return { collect: table => { into = table } }
}
