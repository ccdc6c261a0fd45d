// Where a CPU profile's sample goes: the category of the deepest frame of its stack that has one, by file.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ROOT } from './options'

export const CATEGORIES = [
  ['load', 'the original: stored (upsert), read and parsed (drain): blob store files, lib/ingest/loaders, unpdf…'],
  ['chunk', 'chunking (lib/ingest/chunker, sections)'],
  ['tokenize', 'tokenize (js-tiktoken, lib/ingest/tokenizer)'],
  ['hash', 'content hash (lib/ingest/content-hash, SHA-256)'],
  ['embed', 'embed request, client side (ai, @ai-sdk, undici/sockets, JSON of the floats, binary vectors)'],
  ['db-wasm', 'database engine: PostgreSQL in WebAssembly (PGlite)'],
  ['db-js', 'database engine: PGlite JavaScript (protocol, row parsing, param serialisation, Emscripten FS)'],
  ['prisma', 'Prisma (lib/generated, @prisma/client runtime and query compiler, pglite-prisma-adapter)'],
  ['sql', 'our SQL layer (lib/db)'],
  ['ingest', 'worker, batching, leases, statement building (other lib/ingest)'],
  ['upsert', 'upsert service, validation (lib/datastores, lib/http, lib/auth, lib/domain)'],
  ['app', 'other app code (other lib/, scripts/)'],
  ['bench', "this benchmark's own measuring (the statement timer)"],
  ['gc', 'garbage collector (main thread)'],
  ['program', 'V8 native, not attributed to a frame ("(program)": compilation, runtime)'],
  ['runtime', 'Node runtime otherwise (promises, timers, fs callbacks)'],
] as const

export type Category = (typeof CATEGORIES)[number][0] | 'idle'

export interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
export interface CpuProfile { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] }

const PACKAGE_CATEGORIES: [RegExp, Category][] = [
  [/^@electric-sql\/pglite/, 'db-js'],
  [/^(@prisma\/|prisma\/|pglite-prisma-adapter\/)/, 'prisma'],
  [/^js-tiktoken\//, 'tokenize'],
  [/^(ai|@ai-sdk\/[^/]+|@opentelemetry\/api|eventsource-parser)\//, 'embed'],
  [/^(unpdf|pdfjs-dist|mammoth|exceljs|jszip|papaparse|officeparser|cheerio|linkedom|jsdom|@mozilla\/readability)\//, 'load'],
]

const SOURCE_CATEGORIES: [RegExp, Category][] = [
  [/^lib\/generated\//, 'prisma'],
  [/^lib\/ingest\/(loaders\/|sync-document|extract|kinds\/stored-original)|^lib\/db\/blob-store/, 'load'],
  [/^lib\/ingest\/(chunker|sections)/, 'chunk'],
  [/^lib\/ingest\/content-hash/, 'hash'],
  [/^lib\/ingest\/tokenizer/, 'tokenize'],
  [/^lib\/ingest\/(embed|vector-binary)|^lib\/db\/vector-binary|^lib\/(search\/embeddings|embeddings\/)/, 'embed'],
  [/^lib\/db\//, 'sql'],
  [/^lib\/ingest\//, 'ingest'],
  [/^lib\/(datastores|http|auth|domain)\//, 'upsert'],
  [/^(lib|scripts|app)\//, 'app'],
]

// Node's own HTTP client and sockets: in the drain, the only sockets are the embeddings requests'
const NODE_EMBED = /^node:(internal\/deps\/undici|net$|internal\/net|internal\/stream_base_commons|_http|http$|internal\/http)/
// Node's asynchronous file API: in these phases, only the blob store uses it (PGlite's file system is synchronous)
const NODE_FILES = /^node:internal\/fs\/promises/

// This script's own frames: the statement timer is the benchmark's cost, the upsert adapter (a request body's JSON)
// the upsert's; the others (the phases' drivers) decide nothing
const OWN_FRAMES: Record<string, Category> = { benchStatementTimer: 'bench', upsertRequest: 'upsert' }
// this script's files: its entry point (scripts/bench/ingest-profile.ts) and this folder
const OWN_DIR = import.meta.dirname
const OWN_ENTRY = `${OWN_DIR}.ts`

function isOwnFrame(url: string): boolean {
  const file = url.startsWith('file://') ? fileURLToPath(url) : url
  return file === OWN_ENTRY || file.startsWith(OWN_DIR + path.sep)
}

/** The category of one frame, or null when the frame has none (Node internals, zod…: the caller decides). */
export function frameCategory(url: string, functionName: string): Category | null {
  if (!url) return null
  if (isOwnFrame(url)) return OWN_FRAMES[functionName] ?? null
  if (url.startsWith('node:')) return NODE_EMBED.test(url) ? 'embed' : NODE_FILES.test(url) ? 'load' : null
  const file = url.startsWith('file://') ? fileURLToPath(url) : url
  const modules = file.lastIndexOf('/node_modules/')
  if (modules >= 0) {
    const pkg = file.slice(modules + '/node_modules/'.length)
    return PACKAGE_CATEGORIES.find(([re]) => re.test(pkg))?.[1] ?? null
  }
  const rel = file.startsWith(ROOT + path.sep) ? file.slice(ROOT.length + 1) : file
  return SOURCE_CATEGORIES.find(([re]) => re.test(rel))?.[1] ?? null
}

export const isWasmFrame = (f: ProfileNode['callFrame']) => f.url.startsWith('wasm://') || /^(\$|wasm-function|js-to-wasm|wasm-to-js)/.test(f.functionName)
