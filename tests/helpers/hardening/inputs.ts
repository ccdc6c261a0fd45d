import fc from 'fast-check'
import type { EndpointSpec, IdKind } from './endpoints'

// Hostile values and bodies for the bad-input suite: edge values, malformed JSON, wrong content types, truncated
// multipart bodies. JSON with parts no JSON.stringify can build (10,000 levels of nesting, 1e400, a lone
// surrogate escape) is written as Raw text and spliced in when the body is rendered.

export class Raw {
  constructor(readonly json: string, readonly label: string) {}
  toString() {
    return `Raw(${this.label})`
  }
}

const MB = 1024 * 1024
export const DEPTH = 10_000
export const DEEP_ARRAY = new Raw('['.repeat(DEPTH) + ']'.repeat(DEPTH), `array nested ${DEPTH} deep`)
export const DEEP_OBJECT = new Raw('{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH), `object nested ${DEPTH} deep`)
export const HUGE_STRING = new Raw(JSON.stringify('x'.repeat(1 * MB)), '1 MB string')
/** Over LIMIT_BODY_SIZE_MB as the bad-input suite sets it (2 MB). */
export const OVER_LIMIT_STRING = new Raw(JSON.stringify('y'.repeat(2.5 * MB)), '2.5 MB string (over the body limit)')
const HUGE_KEY_OBJECT = new Raw(`{${JSON.stringify('k'.repeat(100_000))}:1}`, 'object with a 100 kB key')
const MANY_KEYS_OBJECT = new Raw(`{${Array.from({ length: 50_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`, 'object with 50,000 keys')
const LONG_ARRAY = new Raw(`[${Array.from({ length: 100_000 }, () => '"x"').join(',')}]`, 'array of 100,000 strings')

const rawNumbers = ['1e400', '-1e400', '1' + '0'.repeat(400), '0.' + '0'.repeat(400) + '1', '-0', '123456789012345678901234567890', '1E-400', '9007199254740993']
const rawStrings = ['"\\u0000"', '"a\\u0000b"', '"\\ud800"', '"x\\udfff"', '"\\ud83d"', '"\\udc00\\ud800"', '"\\u0000\\ud800\\uffff"']

/** Values a field should never choke on. */
export const SPECIAL_VALUES: unknown[] = [
  null, true, false, 0, -1, 1.5, -0.0001, 1e308, -1e308, 2 ** 31, 2 ** 53 + 2, -(2 ** 53), 4096, 4097, 100, 101,
  '', ' ', '\t\n', 'null', 'true', '0', '-1', 'NaN', 'Infinity', '[]', '{}', '\u0000', 'a\u0000b', '\u0000'.repeat(100),
  '\ud800', 'x\udfff', '\u202eevil', '\ufeffbom', 'e\u0301\u0301\u0301', '💩'.repeat(500), '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', '\u0007\u001b[31mred',
  "' OR 1=1 --", '"; DROP TABLE "Datastore"; --', '../../etc/passwd', '%00', '${7*7}', '{{7*7}}', '<script>alert(1)</script>',
  'file:///etc/passwd', 'gopher://127.0.0.1:6379/_INFO', 'http://169.254.169.254/latest/meta-data/', 'javascript:alert(1)',
  'x'.repeat(129), 'x'.repeat(257), 'x'.repeat(20_001), 'web_page', 'web_site', 'file', 'text', 'model_4_32k', 'public',
  [], [null], [[]], [''], ['\u0000'], Array.from({ length: 1001 }, (_, i) => `id${i}`), {}, { a: null }, { __proto__: { polluted: 1 } },
  JSON.parse('{"__proto__":{"polluted":1}}'), { constructor: { prototype: { polluted: 1 } } }, { toString: 1, valueOf: 2 },
  ...rawNumbers.map(n => new Raw(n, n.length > 20 ? `${n.slice(0, 12)}…` : n)),
  ...rawStrings.map(s => new Raw(s, s)),
  DEEP_ARRAY, DEEP_OBJECT, HUGE_STRING, OVER_LIMIT_STRING, HUGE_KEY_OBJECT, MANY_KEYS_OBJECT, LONG_ARRAY,
]

export const edgeValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SPECIAL_VALUES) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.array(fc.string({ unit: 'binary', maxLength: 10 }), { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ unit: 'binary', maxLength: 10 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 4 }) },
)

/** JSON text, with Raw parts spliced in. */
export function renderJson(value: unknown): string {
  const raws: Raw[] = []
  const text = JSON.stringify(value, (_key, v) => {
    if (v instanceof Raw) {
      raws.push(v)
      return `@@RAW${raws.length - 1}@@`
    }
    return v
  })
  if (text === undefined) return ''
  return text.replace(/"@@RAW(\d+)@@"/g, (_, i) => raws[Number(i)].json)
}

/** Bodies that are not JSON, or not the JSON an endpoint takes. */
export const MALFORMED_JSON = [
  '', ' ', '{', '}', '{"a":', '{"a" 1}', "{'a':1}", '{a:1}', '[1,]', '{"a":1,}', 'NaN', 'undefined', '\ufeff{}', '{"a":"\\x"}',
  '{"a":"\\u12"}', '{"a":01}', '"unterminated', '{"a":1}{"b":2}', '{"a":1} trailing', 'null', 'true', '0', '-1', '[]', '[{}]',
  '"a string"', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}', '\u0000', '{"a":"\u0000"}',
  '{"a":"\u0001"}', '{"a":"line\nbreak"}', DEEP_ARRAY.json, DEEP_OBJECT.json, '['.repeat(100_000), '{"a":'.repeat(100_000),
]

/** Content types that are not what a JSON endpoint reads. */
export const WRONG_CONTENT_TYPES = [
  'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'multipart/form-data; boundary=xyz', 'application/xml',
  'text/html', 'application/octet-stream', 'application/jsonx', 'json', '*/*', 'application/', ';', 'application/json\u0001',
]

/** A path parameter: one of the tenant's own ids, another tenant's, one of nothing, or raw text. */
export type IdChoice = { tag: 'own' } | { tag: 'other' } | { tag: 'missing' } | { tag: 'raw'; value: string }

export const RAW_IDS = [
  '', ' ', 'x'.repeat(128), 'x'.repeat(129), 'x'.repeat(10_000), '\u0000', 'a\u0000b', '\ud800', '💩', '../../etc/passwd', '..', '.',
  '%00', '%2e%2e%2f', "' OR 1=1 --", 'null', 'undefined', '[object Object]', '*', '%', '_', 'cm0000000000000000000000', '\n', 'a/b',
]

export const idChoice: fc.Arbitrary<IdChoice> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ tag: 'own' } as const) },
  { weight: 1, arbitrary: fc.constant({ tag: 'other' } as const) },
  { weight: 1, arbitrary: fc.constant({ tag: 'missing' } as const) },
  { weight: 2, arbitrary: fc.constantFrom(...RAW_IDS).map(value => ({ tag: 'raw', value }) as const) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }).map(value => ({ tag: 'raw', value }) as const) },
)

const b64 = (s: string) => Buffer.from(s).toString('base64url')
export const RAW_QUERY_VALUES = [
  '', '-1', '0', '1', '201', '1e9', '1.5', 'NaN', 'Infinity', 'abc', '\u0000', 'a\u0000b', 'x'.repeat(10_000), 'bogus', ',,,',
  'synched,bogus', 'pending,,running', '\ud800', b64('5'), b64('{"a":1}'), b64('["2026-01-01T00:00:00.000Z","x\u0000"]'),
  b64('["275760-09-13T00:00:00.000Z","x"]'), b64('["-271821-04-20T00:00:00.000Z","x"]'), b64('["0001-01-01T00:00:00.000Z","x"]'),
  b64('["2026-01-01T00:00:00.000Z",{"a":1}]'), b64('["2026-01-01",' + '"x",'.repeat(1000) + '"y"]'), b64('['.repeat(5000)), 'not base64 !!',
]

export interface Probe {
  /** What the probe is, for a failure message. */
  label: string
  params: Record<string, IdChoice>
  search: Record<string, string>
  headers: Record<string, string>
  body?: string | Uint8Array | { form: Record<string, string | File> } | { truncatedForm: Record<string, string | File>; cut: number; mangle?: 'boundary' | 'no-boundary' }
}

export function searchArb(spec: EndpointSpec): fc.Arbitrary<Record<string, string>> {
  const names = [...Object.keys(spec.query ?? {}), 'junk', 'limit']
  return fc.dictionary(
    fc.constantFrom(...names),
    fc.oneof(fc.constantFrom(...RAW_QUERY_VALUES), fc.constantFrom(...Object.values(spec.query ?? { x: '1' })), fc.string({ unit: 'binary', maxLength: 20 })),
    { maxKeys: 4 },
  )
}

export function paramsArb(spec: EndpointSpec): fc.Arbitrary<Record<string, IdChoice>> {
  const entries = Object.entries(spec.params)
  if (entries.length === 0) return fc.constant({})
  return fc.record(Object.fromEntries(entries.map(([name, kind]) => [name, kind === 'segments' ? segmentsArb : idChoice]))) as fc.Arbitrary<Record<string, IdChoice>>
}

const segmentsArb: fc.Arbitrary<IdChoice> = fc
  .array(fc.oneof(fc.constantFrom(...RAW_IDS.filter(Boolean)), fc.string({ unit: 'binary', minLength: 1, maxLength: 12 })), { minLength: 1, maxLength: 4 })
  .map(parts => ({ tag: 'raw', value: parts.join('\u0001SEP\u0001') }))

/** Every path of a JSON value ("documents.0.text"), objects and arrays included, the root excluded. */
export function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return []
  const out: (string | number)[][] = []
  for (const [k, v] of Object.entries(value)) {
    const key = Array.isArray(value) ? Number(k) : k
    out.push([...prefix, key], ...pathsOf(v, [...prefix, key]))
  }
  return out
}

export function withValueAt(value: unknown, at: (string | number)[], replacement: unknown, op: 'replace' | 'delete'): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>
  let node: Record<string | number, unknown> = copy
  for (const key of at.slice(0, -1)) node = node[key] as Record<string | number, unknown>
  const last = at[at.length - 1]
  if (op === 'delete') {
    if (Array.isArray(node)) node.splice(Number(last), 1)
    else delete node[last]
  } else {
    node[last] = replacement
  }
  return copy
}

/** Bodies for a JSON endpoint: its valid body mutated (a field replaced, removed or added), any JSON, malformed text… */
export function jsonBodyArb(valid: unknown): fc.Arbitrary<Pick<Probe, 'label' | 'headers' | 'body'>> {
  const paths = pathsOf(valid)
  const json = (label: string, body: string | Uint8Array, type = 'application/json'): Pick<Probe, 'label' | 'headers' | 'body'> => ({
    label,
    headers: type ? { 'content-type': type } : {},
    body,
  })
  const mutated = fc
    .tuple(fc.constantFrom('replace', 'replace', 'delete', 'extra', 'extra-nested'), fc.nat(), edgeValue, fc.string({ unit: 'binary', maxLength: 12 }))
    .map(([op, i, v, key]) => {
      if (paths.length === 0 || op === 'extra') {
        const extra = { ...(valid as object), [key]: v }
        return json(`extra field ${JSON.stringify(key)} = ${label(v)}`, renderJson(extra))
      }
      const at = paths[i % paths.length]
      if (op === 'extra-nested') {
        const parent = at.slice(0, -1)
        const body = parent.length === 0 ? { ...(valid as object), [key]: v } : withValueAt(valid, [...parent, key], v, 'replace')
        return json(`extra field at ${[...parent, key].join('.')} = ${label(v)}`, renderJson(body))
      }
      const body = withValueAt(valid, at, v, op as 'replace' | 'delete')
      return json(`${op} ${at.join('.')}${op === 'replace' ? ` = ${label(v)}` : ''}`, renderJson(body))
    })
  const text = renderJson(valid)
  return fc.oneof(
    { weight: 8, arbitrary: mutated },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map(v => json(`any JSON ${label(v)}`, renderJson(v))) },
    { weight: 2, arbitrary: fc.constantFrom(...MALFORMED_JSON).map(t => json(`malformed ${label(t)}`, t)) },
    { weight: 1, arbitrary: fc.nat({ max: Math.max(0, text.length - 1) }).map(n => json(`truncated at ${n}`, text.slice(0, n))) },
    { weight: 1, arbitrary: fc.constantFrom(...WRONG_CONTENT_TYPES).map(t => json(`content-type ${JSON.stringify(t)}`, text, t)) },
    { weight: 1, arbitrary: fc.constant(json('no content-type', text, '')) },
    {
      weight: 1,
      arbitrary: fc.uint8Array({ maxLength: 64 }).map(bytes => json('invalid UTF-8', new Uint8Array([...Buffer.from(text.slice(0, 8)), 0xff, 0xfe, 0xc0, ...bytes]))),
    },
  )
}

/** Multipart bodies: the valid parts with one replaced, removed or added; truncated or mangled bodies. */
export function formBodyArb(valid: Record<string, string | File>): fc.Arbitrary<Pick<Probe, 'label' | 'headers' | 'body'>> {
  const names = Object.keys(valid)
  const fileArb = fc
    .tuple(
      fc.oneof(fc.constantFrom('a.txt', 'a.pdf', 'a.docx', 'noext', '', '.', '../../etc/passwd', 'a\u0000b.txt', 'x'.repeat(300) + '.txt', '💩.md', 'a.exe', 'a.TXT'), fc.string({ unit: 'binary', maxLength: 20 })),
      fc.oneof(fc.constantFrom('', 'text/plain', 'application/pdf', 'application/octet-stream', 'image/png', 'text/csv; charset=utf-16', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'x/y'), fc.string({ maxLength: 20 })),
      fc.uint8Array({ maxLength: 256 }),
    )
    .map(([name, type, bytes]) => new File([bytes], name, { type: type.replace(/[^\x20-\x7e]/g, '') }))
  const partValue = fc.oneof(
    fc.constantFrom(...SPECIAL_VALUES.filter((v): v is string => typeof v === 'string')),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fileArb,
  )
  const mutated = fc.tuple(fc.constantFrom('replace', 'delete', 'extra', 'duplicate'), fc.nat(), partValue, fc.string({ maxLength: 10 })).map(([op, i, v, key]) => {
    const parts: Record<string, string | File> = { ...valid }
    const name = names[i % names.length]
    if (op === 'delete') delete parts[name]
    else if (op === 'extra') parts[key || 'extra'] = v
    else parts[name] = v
    const shown = typeof v === 'string' ? label(v) : `File(${JSON.stringify(v.name)}, ${JSON.stringify(v.type)}, ${v.size} B)`
    return { label: `multipart ${op} ${op === 'extra' ? key : name}${op === 'delete' ? '' : ` = ${shown}`}`, headers: {}, body: { form: parts } }
  })
  return fc.oneof(
    { weight: 6, arbitrary: mutated },
    {
      weight: 3,
      arbitrary: fc.tuple(fc.nat(), fc.constantFrom(undefined, 'boundary', 'no-boundary')).map(([cut, mangle]) => ({
        label: `multipart truncated at ${cut}${mangle ? `, ${mangle}` : ''}`,
        headers: {},
        body: { truncatedForm: valid, cut, mangle },
      })),
    },
    { weight: 1, arbitrary: fc.constantFrom(...MALFORMED_JSON.slice(0, 10)).map(t => ({ label: `multipart content-type with ${label(t)}`, headers: { 'content-type': 'multipart/form-data; boundary=----x' }, body: t })) },
    { weight: 1, arbitrary: fc.constantFrom(...WRONG_CONTENT_TYPES).map(t => ({ label: `content-type ${JSON.stringify(t)} on a form`, headers: { 'content-type': t }, body: 'file=abc' })) },
  )
}

/** A short readable form of a value for labels. */
export function label(v: unknown): string {
  if (v instanceof Raw) return v.label
  let text: string
  try {
    text = typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? String(v)
  } catch {
    text = String(v)
  }
  return text.length > 60 ? `${text.slice(0, 50)}… (${text.length} chars)` : text
}

export function idKinds(spec: EndpointSpec): IdKind[] {
  return Object.values(spec.params)
}
