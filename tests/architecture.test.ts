// The shape docs/architecture.md describes, checked: a rule broken here is a design change to discuss, not a test
// to adjust.
import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, test } from 'vitest'

const root = path.resolve(import.meta.dirname, '..')
const lib = path.join(root, 'lib')

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(full)
    return /\.tsx?$/.test(entry.name) ? [full] : []
  })
}

const files = sourceFiles(lib).map(file => ({ file: path.relative(root, file), text: fs.readFileSync(file, 'utf8') }))

/** The top folder under lib/ of a file ("ingest" for lib/ingest/kinds/file.ts; the file itself for lib/config.ts). */
function area(relative: string): string {
  const parts = relative.split('/')
  return parts.length > 2 ? parts[1] : parts[1].replace(/\.tsx?$/, '')
}

function importsOf(text: string): string[] {
  return [...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+'(@\/lib\/[^']+)'/gm)].map(m => m[1].replace('@/', ''))
}

describe('the architecture', () => {
  test('no file under lib/ is longer than 250 lines', () => {
    const long = files.filter(f => f.text.split('\n').length > 250).map(f => `${f.file}: ${f.text.split('\n').length} lines`)
    expect(long).toEqual([])
  })

  test('no function under lib/ is longer than 60 lines', () => {
    const long: string[] = []
    for (const { file, text } of files) {
      const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
      const visit = (node: ts.Node) => {
        if (ts.isFunctionLike(node) && 'body' in node && node.body) {
          const start = source.getLineAndCharacterOfPosition(node.getStart()).line
          const end = source.getLineAndCharacterOfPosition(node.getEnd()).line
          if (end - start + 1 > 60) long.push(`${file}:${start + 1} (${end - start + 1} lines)`)
        }
        ts.forEachChild(node, visit)
      }
      visit(source)
    }
    expect(long).toEqual([])
  })

  test('lib/domain is a leaf: it imports nothing else of lib/', () => {
    const outside = files.filter(f => area(f.file) === 'domain').flatMap(f => importsOf(f.text).filter(i => !i.startsWith('lib/domain/')).map(i => `${f.file} → ${i}`))
    expect(outside).toEqual([])
  })

  test('the folders of lib/ import each other without cycles', () => {
    const edges = new Map<string, Set<string>>()
    for (const { file, text } of files) {
      const from = area(file)
      for (const target of importsOf(text)) {
        const to = area(target)
        if (to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to))
      }
    }
    const cycles: string[] = []
    const walk = (node: string, trail: string[]) => {
      for (const next of edges.get(node) ?? []) {
        if (next === trail[0]) cycles.push([...trail, next].join(' → '))
        else if (!trail.includes(next) && next > trail[0]) walk(next, [...trail, next])
      }
    }
    for (const node of edges.keys()) walk(node, [node])
    expect(cycles).toEqual([])
  })

  test('lib/ knows nothing of HTTP requests and responses except lib/http, lib/api (the endpoint wrapper) and the sign-in edge', () => {
    const edge = new Set(['http', 'api', 'auth'])
    const offenders = files
      .filter(f => !edge.has(area(f.file)))
      .filter(f => /\b(new Response\(|Response\.json\(|: Request\b|\(req: Request|NextRequest|NextResponse)/.test(f.text))
      .map(f => f.file)
    expect(offenders).toEqual([])
  })

  test('no datasource type is tested outside its kind: the pipeline, routes and search ask the kind', () => {
    // a datasource's type compared in code (ds.type === 'web_site') or in SQL (type <> 'web_site')
    const typeTests = /\b(?:ds|job|datasource|d|row|site|page|doc|item)\.type\s*[!=]==?\s*'(?:file|text|web_page|web_site)'|\btype\s*(?:=|<>|!=)\s*'(?:file|text|web_page|web_site)'/
    const offenders = [...files, ...['app', 'components'].flatMap(dir => sourceFiles(path.join(root, dir)).map(file => ({ file: path.relative(root, file), text: fs.readFileSync(file, 'utf8') })))]
      .filter(f => !f.file.startsWith('lib/ingest/kinds/'))
      .filter(f => typeTests.test(f.text))
      .map(f => f.file)
    expect(offenders).toEqual([])
  })
})
