// Issue 27: without OTEL_EXPORTER_OTLP_ENDPOINT nothing of OpenTelemetry's SDK is loaded — not at start, not by a
// query or a sync (its modules are imported dynamically by lib/tracing/start.ts only when the endpoint is set). The
// last test is the check's own control: once the endpoint is set the same look finds the SDK's modules.
import { createRequire } from 'node:module'
import { afterAll, describe, expect, test } from 'vitest'
import { tracing } from '@/lib/tracing/spans'
import { startTracing, stopTracing } from '@/lib/tracing/start'
import { createAgentVia, queryAgentVia, useFakeModel } from '../helpers/agents'
import { upsertedDatastore } from '../helpers/retrieval'
import { createTenant } from '../helpers/tenants'

useFakeModel()
const SDK_MODULE = /node_modules\/@opentelemetry\/(sdk-trace|exporter-trace|otlp-|resources)/
const loadedSdkModules = () => Object.keys(createRequire(import.meta.url).cache).filter(path => SDK_MODULE.test(path))

afterAll(async () => {
  await stopTracing()
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT
})

describe('without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  test('a start, a sync and a query load nothing of the OpenTelemetry SDK', async () => {
    expect(await startTracing()).toBe(false)
    const tenant = await createTenant()
    const datastoreId = await upsertedDatastore(tenant, [{ text: 'The kettle warranty is two years.' }])
    const agent = await createAgentVia(tenant, { datastoreIds: [datastoreId] })
    expect((await queryAgentVia(agent.id, { query: 'How long is the warranty?' }, tenant.headers)).status).toBe(200)
    expect(tracing()).toBeUndefined()
    expect(loadedSdkModules()).toEqual([])
  })

  test('(the control) with the endpoint set, the same look finds the SDK loaded', async () => {
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = 'http://127.0.0.1:4318'
    expect(await startTracing()).toBe(true)
    expect(loadedSdkModules().length).toBeGreaterThan(0)
  })
})
