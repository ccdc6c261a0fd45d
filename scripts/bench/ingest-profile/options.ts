// The profile's command-line options (scripts/bench/ingest-profile.ts lists them), and the tree it measures.
import path from 'node:path'

/** The tree this copy of the profile belongs to (the other tree's own copy, when ingest-compare.ts runs it there). */
export const ROOT = path.resolve(import.meta.dirname, '..', '..', '..')

export interface ProfileOptions {
  docs: number
  batch: number
  concurrency?: number
  corpus: string
  intervalUs: number
  /** No CPU profile: to measure the profiler's own cost. */
  noProfile?: boolean
  /** Full-text mode: no embeddings provider (as after `npm ci && npm start` without OPENAI_API_KEY). */
  noEmbeddings?: boolean
  sqlRounds: number
  json?: string
  cpuprofile?: string
  label?: string
}

export function parseArgs(argv: string[]): { options: ProfileOptions; compare?: string; rounds: number; balanced: boolean; rest: string[] } {
  const options: ProfileOptions = {
    docs: 1500,
    batch: 100,
    corpus: process.env.BENCH_CORPUS ?? path.resolve(ROOT, '..', 'shared', 'data', 'scifact-train', 'corpus.jsonl'),
    intervalUs: 1000,
    sqlRounds: 2,
  }
  let compare: string | undefined
  let rounds = 2
  let balanced = false
  const rest: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const value = () => {
      const v = argv[++i]
      if (v === undefined) throw new Error(`${arg} needs a value`)
      return v
    }
    const int = () => {
      const v = Number(value())
      if (!Number.isInteger(v) || v < 0) throw new Error(`${arg} needs a whole number`)
      return v
    }
    switch (arg) {
      case '--docs': options.docs = int(); rest.push(arg, String(options.docs)); break
      case '--batch': options.batch = Math.min(1000, Math.max(1, int())); rest.push(arg, String(options.batch)); break
      case '--concurrency': options.concurrency = Math.max(1, int()); rest.push(arg, String(options.concurrency)); break
      case '--corpus': options.corpus = path.resolve(value()); rest.push(arg, options.corpus); break
      case '--interval': options.intervalUs = Math.max(50, int()); rest.push(arg, String(options.intervalUs)); break
      case '--sql-rounds': options.sqlRounds = int(); rest.push(arg, String(options.sqlRounds)); break
      case '--no-profile': options.noProfile = true; rest.push(arg); break
      case '--no-embeddings': options.noEmbeddings = true; rest.push(arg); break
      case '--json': options.json = path.resolve(value()); break
      case '--cpuprofile': options.cpuprofile = path.resolve(value()); break
      case '--label': options.label = value(); break
      case '--compare': compare = path.resolve(value()); break
      case '--rounds': rounds = Math.max(1, int()); break
      case '--balanced': balanced = true; break
      default: throw new Error(`unknown option ${arg}`)
    }
  }
  return { options, compare, rounds, balanced, rest }
}
