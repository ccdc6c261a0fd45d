// Part of the database thread's own code (lib/db/pglite-thread-source.ts, plain JavaScript in a string): a prepared
// statement's run written and read on the wire here, not by PGlite's serializer and parser. Those build an object a
// message and copy every field twice (issue 28: a third of PGlite's JavaScript on the database thread under
// bench:load, ~0.05 ms a one-row statement and ~0.18 ms a 30-row one in a micro-benchmark); here Bind, Execute and
// Sync are one buffer, and a row's values are decoded straight from the bytes PostgreSQL sent.
//
// PGlite's execProtocolRawStream hands over PostgreSQL's bytes unparsed. It leaves its reader in place afterwards,
// which is safe because every other path of PGlite 0.5 (query, exec, transaction, and execProtocolStream, which
// preparing uses) installs its own before it runs; closing sends only a Terminate, which reads nothing.
// Errors are rare: the response is then read again by PGlite's own parser, so the error thrown is PGlite's
// DatabaseError with every field, as before. Inside a template literal: a backslash or a backtick here needs escaping.
export const WIRE_SOURCE = `
const WIRE_TEXT = new TextEncoder()
const WIRE_UTF8 = new TextDecoder()
const WIRE_BIND = 0x42, WIRE_EXECUTE = 0x45, WIRE_SYNC = 0x53
const WIRE_BIND_COMPLETE = 0x32, WIRE_DATA_ROW = 0x44, WIRE_COMMAND_COMPLETE = 0x43, WIRE_ERROR = 0x45, WIRE_READY = 0x5a

function wireBytes(value) {
  if (value instanceof Uint8Array) return value
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
  if (value instanceof ArrayBuffer) return new Uint8Array(value)
  return null
}

// Bind (text values, or binary ones given as bytes; every result column as text), Execute and, with sync, Sync
function wireBindExecute(statement, values, sync) {
  const name = WIRE_TEXT.encode(statement)
  const params = values.map(value => {
    if (value === null || value === undefined) return null
    const bytes = wireBytes(value)
    if (bytes) return { bytes, binary: true, length: bytes.length }
    const text = String(value)
    return { text, binary: false, length: Buffer.byteLength(text) }
  })
  const binary = params.some(p => p && p.binary)
  let bind = 4 + 1 + name.length + 1 + 2 + (binary ? 2 * params.length : 0) + 2 + 2
  for (const p of params) bind += 4 + (p ? p.length : 0)
  const out = new Uint8Array(1 + bind + 10 + (sync ? 5 : 0))
  const view = new DataView(out.buffer)
  let at = 0
  out[at++] = WIRE_BIND
  view.setInt32(at, bind); at += 4
  out[at++] = 0 // the unnamed portal
  out.set(name, at); at += name.length
  out[at++] = 0
  view.setInt16(at, binary ? params.length : 0); at += 2
  if (binary) for (const p of params) { view.setInt16(at, p && p.binary ? 1 : 0); at += 2 }
  view.setInt16(at, params.length); at += 2
  for (const p of params) {
    view.setInt32(at, p ? p.length : -1); at += 4
    if (!p) continue
    // text straight into the message, without an intermediate copy (a chunk batch's texts are ~1 MB)
    if (p.binary) out.set(p.bytes, at)
    else WIRE_TEXT.encodeInto(p.text, out.subarray(at, at + p.length))
    at += p.length
  }
  view.setInt16(at, 0); at += 2
  out[at++] = WIRE_EXECUTE
  view.setInt32(at, 9); at += 4
  out[at++] = 0
  view.setInt32(at, 0); at += 4
  if (sync) { out[at++] = WIRE_SYNC; view.setInt32(at, 4) }
  return out
}

// PostgreSQL's bytes for the message; the reader's chunks are views of PGlite's buffer, copied before the next one
async function wireRun(db, message) {
  const chunks = []
  await db.execProtocolRawStream(message, { syncToFs: false, onRawData: chunk => { chunks.push(chunk.slice()) } })
  if (chunks.length === 1) return chunks[0]
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0))
  let at = 0
  for (const c of chunks) { all.set(c, at); at += c.length }
  return all
}

// The rows and command tags of the first portal run in the response (from its BindComplete to the next
// ReadyForQuery); PostgreSQL's first error is thrown, as PGlite's own run would
function wireResult(bytes, Parser) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const rows = []
  const tags = []
  let state = 'before'
  for (let at = 0; at + 5 <= bytes.length;) {
    const type = bytes[at]
    const end = at + 1 + view.getInt32(at + 1)
    if (type === WIRE_ERROR) throw wireError(bytes, Parser)
    if (type === WIRE_BIND_COMPLETE && state === 'before') state = 'in'
    else if (type === WIRE_READY && state === 'in') state = 'after'
    else if (state === 'in' && type === WIRE_DATA_ROW) rows.push(wireRow(bytes, view, at + 5))
    else if (state === 'in' && type === WIRE_COMMAND_COMPLETE) tags.push(WIRE_UTF8.decode(bytes.subarray(at + 5, end - 1)))
    at = end
  }
  return { rows, tags }
}

function wireRow(bytes, view, at) {
  const row = new Array(view.getInt16(at))
  at += 2
  for (let i = 0; i < row.length; i++) {
    const length = view.getInt32(at)
    at += 4
    if (length < 0) { row[i] = null; continue }
    row[i] = WIRE_UTF8.decode(bytes.subarray(at, at + length))
    at += length
  }
  return row
}

function wireError(bytes, Parser) {
  let first = null
  new Parser().parse(bytes, message => { if (!first && message instanceof DatabaseError) first = message })
  return first || new Error('the database answered with an error that could not be read')
}
`
