// One run's output: Markdown tables ready to paste into docs/benchmarks.md.
import { CATEGORIES } from './categories'
import { categoryCpuMs, embeddingsOf, f, sqlDeltas, statementCpuMs } from './measures'
import type { ProfileResult } from './result'

type PerChunk = (ms: number) => number

function phasesTable(r: ProfileResult, perChunk: PerChunk): string[] {
  const out: string[] = []
  const total = r.upsert.wallMs + r.drain.wallMs
  out.push(`### ${r.label}: measured on ${r.state}`)
  out.push('')
  out.push(
    `${r.docs.toLocaleString('en')} SciFact abstracts (title + text, ${f(r.textMB, 1)} MB) → ${r.chunks.toLocaleString('en')} chunks ` +
      `(${r.tokens.toLocaleString('en')} tokens, ${embeddingsOf(r)}); upserts of ${r.options.batch} documents; drainQueue with ` +
      `${r.concurrency} lanes (${r.jobs} jobs); fresh PGlite DATA_DIR (opened in ${f(r.dbOpenMs / 1000, 1)} s); ` +
      `machine: ${r.machine}; load average at start ${r.load.join(' / ')}; ${r.finishedAt}.`,
  )
  out.push('')
  out.push('| phase | wall | chunks/s | CPU ms/chunk (process) | main thread | other threads | profiled (not idle) |')
  out.push('|---|---|---|---|---|---|---|')
  for (const [name, p] of [['upsert (service, in batches)', r.upsert], ['drain (worker: load, chunk, embed, write)', r.drain]] as const) {
    out.push(
      `| ${name} | ${f(p.wallMs / 1000)} s | ${f(r.chunks / (p.wallMs / 1000), 0)} | ${f(perChunk(p.cpuMs))} | ${f(perChunk(p.mainThreadMs))} | ` +
        `${f(perChunk(p.cpuMs - p.mainThreadMs))} | ${f(perChunk(p.profile.busyMs))} |`,
    )
  }
  out.push(
    `| **upsert → synched** | ${f(total / 1000)} s | **${f(r.chunks / (total / 1000), 0)}** | **${f(perChunk(r.upsert.cpuMs + r.drain.cpuMs))}** | ` +
      `${f(perChunk(r.upsert.mainThreadMs + r.drain.mainThreadMs))} | ${f(perChunk(r.upsert.cpuMs + r.drain.cpuMs - r.upsert.mainThreadMs - r.drain.mainThreadMs))} | ` +
      `${f(perChunk(r.upsert.profile.busyMs + r.drain.profile.busyMs))} |`,
  )
  return out
}

function categoriesTable(r: ProfileResult, perChunk: PerChunk): string[] {
  const out: string[] = []
  out.push('')
  out.push(
    'Main-thread CPU by category, ms per chunk (sampling profile: each sample to the deepest categorised frame of its stack; ' +
      "the shares applied to the main thread's measured CPU):",
  )
  out.push('')
  out.push('| category | upsert | drain | drain share |')
  out.push('|---|---|---|---|')
  for (const [key, label] of CATEGORIES) {
    const u = categoryCpuMs(r.upsert, key)
    const d = categoryCpuMs(r.drain, key)
    if (u < 0.5 && d < 0.5) continue
    out.push(`| ${label} | ${f(perChunk(u))} | ${f(perChunk(d))} | ${f((100 * (r.drain.profile.ms[key] ?? 0)) / r.drain.profile.busyMs, 1)} % |`)
  }
  out.push(`| **main thread** | **${f(perChunk(r.upsert.mainThreadMs))}** | **${f(perChunk(r.drain.mainThreadMs))}** | 100 % |`)
  out.push(`| other threads (GC helpers, JIT compilers, libuv's pool) | ${f(perChunk(r.upsert.cpuMs - r.upsert.mainThreadMs))} | ${f(perChunk(r.drain.cpuMs - r.drain.mainThreadMs))} | |`)
  out.push(`| **process** | **${f(perChunk(r.upsert.cpuMs))}** | **${f(perChunk(r.drain.cpuMs))}** | |`)
  out.push(`| *main thread idle, wall (waiting on the embeddings server, files)* | ${f(perChunk(r.upsert.profile.ms.idle ?? 0))} | ${f(perChunk(r.drain.profile.ms.idle ?? 0))} | |`)
  out.push('')
  out.push('Drain: the functions with the most self time (profiled wall time of the busy main thread):')
  out.push('')
  out.push('| category | function | where | ms/chunk |')
  out.push('|---|---|---|---|')
  for (const [category, fn, where, ms] of r.drain.profile.top.slice(0, 12)) out.push(`| ${category} | \`${fn.length > 60 ? `${fn.slice(0, 57)}…` : fn}\` | ${where} | ${f(perChunk(ms), 3)} |`)
  return out
}

function statementsTable(r: ProfileResult, perChunk: PerChunk): string[] {
  const out: string[] = []
  const inEngine = statementCpuMs(r.drain)
  if (inEngine > 0) {
    const wall = r.drain.statements.reduce((n, x) => n + x.ms, 0)
    out.push('')
    out.push(
      `Drain: CPU inside PostgreSQL's main loop per statement (PGlite's synchronous execProtocolRawSync calls timed, scaled by the ` +
        `main thread's CPU over its busy time; ${f(perChunk(inEngine))} ms/chunk in all, ${f(perChunk(wall))} of wall time, ` +
        `${r.drain.statements.reduce((n, x) => n + x.calls, 0).toLocaleString('en')} calls):`,
    )
    out.push('')
    out.push('| statement | protocol calls | ms/chunk |')
    out.push('|---|---|---|')
    for (const st of r.drain.statements.slice(0, 12)) {
      out.push(`| \`${st.sql.replace(/\|/g, '\\|')}\` | ${st.calls} | ${f(perChunk((st.ms * inEngine) / wall), 3)} |`)
    }
  }
  return out
}

function sqlTable(r: ProfileResult): string[] {
  const out: string[] = []
  if (r.sql) {
    out.push('')
    out.push(
      `SQL experiment (same database after the drain, the run's ${r.sql.rows.toLocaleString('en')} chunk rows inserted again as the worker writes them, ` +
        `into fresh copies of "Chunk", ${r.options.sqlRounds} round(s), mean; ${r.sql.notes.join('; ')}):`,
    )
    out.push('')
    out.push('| table | CPU ms/chunk (process) | wall ms/chunk | difference in CPU | attributed to |')
    out.push('|---|---|---|---|---|')
    for (const d of sqlDeltas(r)) out.push(`| ${d.label} | ${f(d.cpuPerChunk)} | ${f(d.wallPerChunk)} | ${f(d.deltaCpu)} | ${d.attributed} |`)
  }
  return out
}

export function renderRun(r: ProfileResult): string {
  const perChunk = (ms: number) => ms / r.chunks
  return [...phasesTable(r, perChunk), ...categoriesTable(r, perChunk), ...statementsTable(r, perChunk), ...sqlTable(r)].join('\n')
}
