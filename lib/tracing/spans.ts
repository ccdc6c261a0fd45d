import type * as OtelApi from '@opentelemetry/api'

// Traces (issue 27, DESIGN.md §13): spans of the agent query and the sync job, sent to OTEL_EXPORTER_OTLP_ENDPOINT.
// This module is what the code paths call; it imports nothing of OpenTelemetry at run time (types only). Until
// start.ts has loaded the SDK (only when the endpoint is set), every span is a no-op that costs one property read.

export interface Tracing {
  api: typeof OtelApi
  tracer: OtelApi.Tracer
  /** Sends the spans ended so far. */
  flush(): Promise<void>
  shutdown(): Promise<void>
}

export type SpanAttributes = Record<string, string | number | boolean | undefined>

// on globalThis: under `next start` instrumentation and the routes are separate bundles of one process
const holder = globalThis as typeof globalThis & { __adsTracing?: Tracing }

export function useTracing(tracing: Tracing | undefined): void {
  holder.__adsTracing = tracing
}

export function tracing(): Tracing | undefined {
  return holder.__adsTracing
}

/** A span open across several steps: `run` and `iterate` make it the parent of the spans started inside them. */
export interface OpenSpan {
  run<T>(fn: () => T): T
  /** The steps of `source`, each run inside the span, which ends with the iteration (or its error). */
  iterate<T>(source: AsyncIterable<T>): AsyncIterable<T>
  set(attributes: SpanAttributes): void
  end(error?: unknown): void
}

const NOOP: OpenSpan = { run: fn => fn(), iterate: source => source, set: () => {}, end: () => {} }

const defined = (attributes: SpanAttributes) => Object.fromEntries(Object.entries(attributes).filter(([, v]) => v !== undefined)) as OtelApi.Attributes

/** Opens a span, a child of the span current where it is called. */
export function openSpan(name: string, attributes: SpanAttributes = {}): OpenSpan {
  const otel = holder.__adsTracing
  if (!otel) return NOOP
  const span = otel.tracer.startSpan(name, { attributes: defined(attributes) })
  return spanHandle(otel.api, span, otel.api.trace.setSpan(otel.api.context.active(), span))
}

/**
 * The span of a request to the API (lib/api/direct-dispatch.ts), named by its method and route: a child of the
 * caller's span when its `traceparent` header names one, else the root of a trace.
 */
export function openRequestSpan(method: string, route: string, headers: Headers): OpenSpan {
  const otel = holder.__adsTracing
  if (!otel) return NOOP
  const { api } = otel
  const caller = api.propagation.extract(api.ROOT_CONTEXT, headers, { keys: h => [...h.keys()], get: (h, key) => h.get(key) ?? undefined })
  const attributes = { 'http.request.method': method, 'http.route': route }
  const span = otel.tracer.startSpan(`${method} ${route}`, { kind: api.SpanKind.SERVER, attributes }, caller)
  return spanHandle(api, span, api.trace.setSpan(caller, span))
}

function spanHandle(api: typeof OtelApi, span: OtelApi.Span, context: OtelApi.Context): OpenSpan {
  let ended = false
  const end = (error?: unknown) => {
    if (ended) return
    ended = true
    if (error !== undefined) {
      span.recordException(error instanceof Error ? error : String(error))
      span.setStatus({ code: api.SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) })
    }
    span.end()
  }
  return {
    run: fn => api.context.with(context, fn),
    iterate: source => iterateInside(api, context, source, end),
    set: attributes => span.setAttributes(defined(attributes)),
    end,
  }
}

function iterateInside<T>(api: typeof OtelApi, context: OtelApi.Context, source: AsyncIterable<T>, end: (error?: unknown) => void): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]() {
      const inner = api.context.with(context, () => source[Symbol.asyncIterator]())
      return {
        next: async () => {
          try {
            const step = await api.context.with(context, () => inner.next())
            if (step.done) end()
            return step
          } catch (error) {
            end(error)
            throw error
          }
        },
        return: async (value?: unknown) => {
          end()
          return (await inner.return?.(value)) ?? { done: true as const, value: value as T }
        },
      }
    },
  }
}

/** Runs `fn` inside a span, a child of the current one; an error marks the span failed and is thrown on. */
export async function inSpan<T>(name: string, attributes: SpanAttributes, fn: () => Promise<T>): Promise<T> {
  if (!holder.__adsTracing) return fn()
  const span = openSpan(name, attributes)
  try {
    const result = await span.run(fn)
    span.end()
    return result
  } catch (error) {
    span.end(error)
    throw error
  }
}
