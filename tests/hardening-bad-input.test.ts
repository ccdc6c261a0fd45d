// Hardening (issue 6) part 1: bad input on every /api endpoint. Generated (fast-check) and tabled probes: malformed
// JSON, wrong types, missing and extra fields, out-of-range numbers, huge strings and bodies over the limit, deeply
// nested values, unicode edge cases (NUL, lone surrogates), ids of other tenants and of nothing, wrong content
// types, truncated multipart bodies. Every answer is a 4xx with the JSON error body, or a success; never a 5xx;
// a refused request writes nothing. HARDENING_RUNS (default 40 per endpoint) and HARDENING_SEED tune the run.
import fs from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { useFakeModel } from './helpers/agents'
import { describeEndpoint, ENDPOINTS, EXCLUDED, handlerOf, METHODS, routeFiles, type EndpointSpec } from './helpers/hardening/endpoints'
import {
  DEEP_ARRAY, DEEP_OBJECT, formBodyArb, HUGE_STRING, jsonBodyArb, label, MALFORMED_JSON, OVER_LIMIT_STRING, paramsArb, Raw, RAW_IDS,
  RAW_QUERY_VALUES, renderJson, searchArb, withValueAt, pathsOf, WRONG_CONTENT_TYPES, type Probe,
} from './helpers/hardening/inputs'
import { probeEndpoint, stats } from './helpers/hardening/probe'
import { createTenantWorld, MARKER, type TenantWorld } from './helpers/hardening/world'

process.env.LIMIT_BODY_SIZE_MB = '2'
process.env.LIMIT_PUBLIC_QUERIES_PER_MINUTE = '1000000'
const RUNS = Number(process.env.HARDENING_RUNS ?? 40)
const SEED = Number(process.env.HARDENING_SEED ?? 20261125)
const FULL = process.env.HARDENING_FULL === '1'

const model = useFakeModel()
let a: TenantWorld
let b: TenantWorld
const started = Date.now()

beforeAll(async () => {
  a = await createTenantWorld('A', MARKER)
  b = await createTenantWorld('B')
})

afterAll(() => {
  const seconds = Math.round((Date.now() - started) / 100) / 10
  const summary = { inputsTried: stats.tried, serverErrors: stats.serverErrors.length, byStatus: stats.byStatus, byEndpoint: stats.byEndpoint, runsPerEndpoint: RUNS, seed: SEED, full: FULL, seconds }
  console.log(`hardening bad input: ${stats.tried} inputs tried on ${Object.keys(stats.byEndpoint).length} endpoints in ${seconds} s, ${stats.serverErrors.length} answered 5xx; statuses ${JSON.stringify(stats.byStatus)}`)
  for (const line of stats.serverErrors.slice(0, 20)) console.log(`  5xx: ${line}`)
  const out = path.resolve(import.meta.dirname, '../test-results')
  fs.mkdirSync(out, { recursive: true })
  fs.writeFileSync(path.join(out, 'hardening-bad-input.json'), JSON.stringify(summary, null, 2))
})

function fastModel() {
  model.fake.setBehaviour({ reply: 'Two years.', delayMs: 0 })
}

const noBody = (label: string): Pick<Probe, 'label' | 'headers' | 'body'> => ({ label, headers: {}, body: undefined })

function bodyArb(spec: EndpointSpec): fc.Arbitrary<Pick<Probe, 'label' | 'headers' | 'body'>> {
  if (spec.method === 'GET') return fc.constant(noBody('no body'))
  switch (spec.body) {
    case 'none':
      return fc.oneof(
        fc.constant(noBody('no body')),
        fc.constantFrom(...MALFORMED_JSON.slice(0, 12)).map(t => ({ label: `ignored body ${label(t)}`, headers: { 'content-type': 'application/json' }, body: t })),
      )
    case 'json':
    case 'optional-json':
      return jsonBodyArb(spec.valid!(a))
    case 'multipart':
      return formBodyArb(spec.validForm!(a))
    case 'json-or-multipart':
      return fc.oneof(jsonBodyArb(spec.valid!(a)), formBodyArb(spec.validForm!(a)))
  }
}

describe('the endpoint table', () => {
  test('every route file under app/api is described, or excluded with a reason', () => {
    const described = new Set([...ENDPOINTS.map(e => e.file), ...Object.keys(EXCLUDED)])
    const missing = routeFiles().filter(f => !described.has(f))
    expect(missing, `add these route files to tests/helpers/hardening/endpoints.ts: ${missing.join(', ')}`).toEqual([])
    const gone = [...described].filter(f => !routeFiles().includes(f))
    expect(gone, 'these described route files no longer exist').toEqual([])
  })

  test('the methods described are exactly the methods each route file answers (others are JSON 405s)', async () => {
    const wrong: string[] = []
    for (const file of new Set(ENDPOINTS.map(e => e.file))) {
      for (const method of METHODS) {
        const handler = await handlerOf(file, method)
        const described = ENDPOINTS.some(e => e.file === file && e.method === method)
        if (!handler) {
          if (described) wrong.push(`${method} ${file}: described but not exported`)
          continue
        }
        const res = await handler(new Request(`http://localhost/api/x`, { method }), { params: Promise.resolve({ id: 'x', datastoreId: 'x', path: ['x'] }) })
        const body = await res.json().catch(() => undefined)
        if ((res.status === 405) === described) wrong.push(`${method} ${file}: answers ${res.status} but is ${described ? '' : 'not '}described`)
        if (res.status === 405) expect(body?.error?.code).toBe('method_not_allowed')
      }
    }
    expect(wrong).toEqual([])
  })
})

describe('generated bad input: a 4xx with the JSON error body, never a 5xx, nothing written when refused', () => {
  for (const spec of ENDPOINTS) {
    test(`${describeEndpoint(spec)}`, async () => {
      fastModel()
      const arb = fc.record({ params: paramsArb(spec), search: searchArb(spec), body: bodyArb(spec) })
      await fc.assert(
        fc.asyncProperty(arb, async ({ params, search, body }) => {
          await probeEndpoint(spec, { ...body, params, search }, a, b)
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      )
    }, 120_000)
  }
})

// The same rules on fixed tables, so that every family of bad input reaches every endpoint on every run
describe('tabled bad input', () => {
  const jsonEndpoints = () => ENDPOINTS.filter(e => e.valid && e.method !== 'GET')
  const own = (spec: EndpointSpec) => Object.fromEntries(Object.keys(spec.params).map(k => [k, { tag: 'own' } as const]))
  // one value of each family at every field of every JSON body (HARDENING_FULL=1: every special value)
  const FAMILIES: unknown[] = [
    '\u0000', 'a\u0000b', '\ud800', new Raw('"\\udc00x"', 'lone low surrogate'), new Raw('1e400', '1e400'), -1, 2 ** 53 + 2, 1.5, 'x'.repeat(20_001),
    { nested: true }, [1, 2], null, DEEP_ARRAY, DEEP_OBJECT, HUGE_STRING, OVER_LIMIT_STRING,
  ]

  test('malformed JSON, wrong content types and absent bodies', async () => {
    fastModel()
    for (const spec of jsonEndpoints()) {
      const text = renderJson(spec.valid!(a))
      for (const body of MALFORMED_JSON) await probeEndpoint(spec, { label: `malformed ${label(body)}`, params: own(spec), search: {}, headers: { 'content-type': 'application/json' }, body }, a, b)
      for (const type of WRONG_CONTENT_TYPES) await probeEndpoint(spec, { label: `content-type ${type}`, params: own(spec), search: {}, headers: { 'content-type': type }, body: text }, a, b)
      await probeEndpoint(spec, { label: 'no body', params: own(spec), search: {}, headers: {}, body: undefined }, a, b)
      await probeEndpoint(spec, { label: 'UTF-16 body', params: own(spec), search: {}, headers: { 'content-type': 'application/json' }, body: new Uint8Array(Buffer.from(text, 'utf16le')) }, a, b)
    }
  }, 120_000)

  test('each family of bad value at every field of every JSON body', async () => {
    fastModel()
    const { SPECIAL_VALUES } = await import('./helpers/hardening/inputs')
    const values = FULL ? [...FAMILIES, ...SPECIAL_VALUES] : FAMILIES
    for (const spec of jsonEndpoints()) {
      const valid = spec.valid!(a)
      for (const at of pathsOf(valid)) {
        for (const v of values) {
          const body = renderJson(withValueAt(valid, at, v, 'replace'))
          await probeEndpoint(spec, { label: `${at.join('.')} = ${label(v)}`, params: own(spec), search: {}, headers: { 'content-type': 'application/json' }, body }, a, b)
        }
        await probeEndpoint(spec, { label: `without ${at.join('.')}`, params: own(spec), search: {}, headers: { 'content-type': 'application/json' }, body: renderJson(withValueAt(valid, at, null, 'delete')) }, a, b)
      }
      for (const v of [DEEP_ARRAY, DEEP_OBJECT, OVER_LIMIT_STRING]) {
        await probeEndpoint(spec, { label: `extra field = ${label(v)}`, params: own(spec), search: {}, headers: { 'content-type': 'application/json' }, body: renderJson({ ...(valid as object), extra: v }) }, a, b)
      }
    }
  }, 240_000)

  test('ids of other tenants, of nothing, and absurd ids in every path parameter', async () => {
    fastModel()
    for (const spec of ENDPOINTS.filter(e => Object.keys(e.params).length > 0)) {
      const body: Pick<Probe, 'headers' | 'body'> = spec.method === 'GET' ? { headers: {} } : spec.valid ? { headers: { 'content-type': 'application/json' }, body: renderJson(spec.valid(a)) } : spec.validForm ? { headers: {}, body: { form: spec.validForm(a) } } : { headers: {} }
      for (const name of Object.keys(spec.params)) {
        const choices = [{ tag: 'other' } as const, { tag: 'missing' } as const, ...RAW_IDS.map(value => ({ tag: 'raw', value }) as const)]
        for (const choice of choices) {
          const answer = await probeEndpoint(spec, { label: `${name} = ${choice.tag === 'raw' ? label(choice.value) : choice.tag}`, params: { ...own(spec), [name]: choice }, search: {}, ...body }, a, b)
          // a public endpoint's path names no tenant's resource but a credential (an invitation's token, a reset link's): any holder may use it
          const tenantBound = !(choice.tag === 'other' && spec.auth === 'none')
          if (choice.tag !== 'raw' && spec.params[name] !== 'segments' && tenantBound) expect(answer.status, `${describeEndpoint(spec)} with ${choice.tag} ${name}`).toBe(404)
          if (answer.status < 400) expect(answer.text).not.toContain(b.datastoreId)
        }
      }
    }
  }, 120_000)

  test('search parameters of the list endpoints', async () => {
    for (const spec of ENDPOINTS.filter(e => e.query)) {
      for (const name of Object.keys(spec.query!)) {
        for (const value of RAW_QUERY_VALUES) {
          await probeEndpoint(spec, { label: `?${name}=${label(value)}`, params: own(spec), search: { ...spec.query!, [name]: value }, headers: {} }, a, b)
        }
      }
    }
  }, 120_000)

  test('each family of bad value in every part of every multipart body, and hostile file names and types', async () => {
    const values = ['\u0000', 'a\u0000b', '\ud800', 'x'.repeat(257), 'x'.repeat(20_001), '', ' ', '../../etc/passwd', '💩'.repeat(300)]
    const files = [
      new File(['text'], 'a\u0000b.txt', { type: 'text/plain' }),
      new File(['text'], '\ud800.txt', { type: 'text/plain' }),
      new File(['text'], `${'n'.repeat(5000)}.txt`, { type: 'text/plain' }),
      new File(['text'], '../../../../etc/passwd.txt', { type: 'text/plain' }),
      new File(['text'], 'a.txt', { type: 'text/plain; charset=\u0001' }),
      new File(['%PDF-1.7 not really'], 'a.exe', { type: 'application/x-msdownload' }),
      new File([], 'empty.txt', { type: 'text/plain' }),
    ]
    for (const spec of ENDPOINTS.filter(e => e.validForm)) {
      const parts = spec.validForm!(a)
      for (const name of Object.keys(parts)) {
        for (const v of [...values, ...files]) {
          const shown = typeof v === 'string' ? label(v) : `File(${label(v.name)}, ${label(v.type)})`
          await probeEndpoint(spec, { label: `part ${name} = ${shown}`, params: own(spec), search: {}, headers: {}, body: { form: { ...parts, [name]: v } } }, a, b)
        }
      }
    }
  }, 120_000)

  test('truncated and mangled multipart bodies on the upload endpoints', async () => {
    for (const spec of ENDPOINTS.filter(e => e.validForm)) {
      const parts = spec.validForm!(a)
      const size = (await new Request('http://x', { method: 'POST', body: (() => { const f = new FormData(); for (const [k, v] of Object.entries(parts)) f.append(k, v); return f })() }).arrayBuffer()).byteLength
      for (let cut = 0; cut < size; cut += Math.max(1, Math.floor(size / 25))) {
        await probeEndpoint(spec, { label: `truncated at ${cut} of ${size}`, params: own(spec), search: {}, headers: {}, body: { truncatedForm: parts, cut } }, a, b)
      }
      for (const mangle of ['boundary', 'no-boundary'] as const) {
        await probeEndpoint(spec, { label: `whole body, ${mangle}`, params: own(spec), search: {}, headers: {}, body: { truncatedForm: parts, cut: size, mangle } }, a, b)
      }
    }
  }, 120_000)
})
