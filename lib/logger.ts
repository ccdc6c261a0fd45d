import { AsyncLocalStorage } from 'node:async_hooks'
import { config } from '@/lib/config'

// One JSON line per event on stderr/stdout, so any log collector can parse it. Never pass secrets in `fields`.
const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const
type Level = keyof typeof LEVELS

function serialize(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack }
  return value
}

// What every line written while serving one request (its id) or running one job (the datasource, the attempt) carries.
// One context a process, on globalThis: under `npm start` this module is bundled once for the instrumentation (which
// answers the API's own routes: lib/api/direct-dispatch.ts) and once for Next's routes, and a line written by one copy
// within the other's context would lose its request id. A second AsyncLocalStorage would also cost every promise of
// the process one more propagation (Node 20's init hook walks all of them).
const holder = globalThis as unknown as { __logContext?: AsyncLocalStorage<Record<string, unknown>> }
const context = (holder.__logContext ??= new AsyncLocalStorage<Record<string, unknown>>())

/** Runs `fn` with `fields` added to every log line it writes, however deep. */
export function withLogContext<T>(fields: Record<string, unknown>, fn: () => T): T {
  return context.run({ ...context.getStore(), ...fields }, fn)
}

function log(level: Level, message: string, fields: Record<string, unknown> = {}) {
  let threshold: Level = 'info'
  try {
    threshold = config().LOG_LEVEL
  } catch {}
  if (LEVELS[level] < LEVELS[threshold]) return
  const entry = { time: new Date().toISOString(), level, message, ...context.getStore(), ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, serialize(v)])) }
  const line = JSON.stringify(entry)
  if (level === 'error' || level === 'warn') console.error(line)
  else console.log(line)
}

export const logger = {
  debug: (message: string, fields?: Record<string, unknown>) => log('debug', message, fields),
  info: (message: string, fields?: Record<string, unknown>) => log('info', message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => log('warn', message, fields),
  error: (message: string, fields?: Record<string, unknown>) => log('error', message, fields),
}
