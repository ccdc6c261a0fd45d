import { config } from '@/lib/config'
import { logger } from '@/lib/logger'
import { tracing, useTracing } from './spans'

// Loads OpenTelemetry's SDK when OTEL_EXPORTER_OTLP_ENDPOINT is set, and only then (dynamic imports): a default start
// loads none of it. Spans go over OTLP/HTTP (JSON) to <endpoint>/v1/traces, batched; the SDK's own OTEL_* variables
// (headers, sampling) apply as it reads them.

/** Starts tracing for this process when the endpoint is set; returns whether it runs. Idempotent. */
export async function startTracing(): Promise<boolean> {
  if (tracing()) return true
  const env = config()
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return false
  const [api, { NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ])
  const url = `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  })
  // the AsyncLocalStorage context manager: a span started in an awaited call is a child of the caller's span
  provider.register()
  useTracing({ api, tracer: provider.getTracer('agent-datastore-service'), flush: () => provider.forceFlush(), shutdown: () => provider.shutdown() })
  logger.info('traces on', { endpoint: url, service: env.OTEL_SERVICE_NAME })
  return true
}

/** Sends the last spans and stops (at shutdown, in tests). */
export async function stopTracing(): Promise<void> {
  const current = tracing()
  useTracing(undefined)
  await current?.shutdown()
}
