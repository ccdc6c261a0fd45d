import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import * as openapiRoute from '@/app/api/openapi.json/route'
import { call } from './helpers/http'
import { routeFiles } from './helpers/hardening/endpoints'

// GET /api/openapi.json: the whole API, from the routes' own zod schemas. A route the document lacks fails here.

const ROOT = path.resolve(import.meta.dirname, '..')
// routes outside the API the document describes: the JSON 404 of unknown /api paths, next-auth's own protocol
const OUTSIDE = ['app/api/[...path]/route.ts', 'app/api/auth/[...nextauth]/route.ts']

/** The methods a route file implements: the keys of its routes({...}) call. */
function implementedMethods(file: string): string[] {
  const source = fs.readFileSync(path.join(ROOT, file), 'utf8')
  return [...source.matchAll(/^\s{2}(GET|POST|PUT|PATCH|DELETE): /gm)].map(m => m[1])
}

const apiPath = (file: string) =>
  '/' +
  path
    .dirname(file)
    .split('/')
    .slice(1)
    .map(s => s.replace(/^\[(\w+)\]$/, '{$1}'))
    .join('/')

async function documentOf() {
  const res = await call(openapiRoute.GET, '/api/openapi.json')
  expect(res.status).toBe(200)
  return res.json
}

describe('the OpenAPI document', () => {
  test('is OpenAPI 3.1, served without a key', async () => {
    const doc = await documentOf()
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.info.title).toEqual(expect.any(String))
  })

  test('describes every method of every route file', async () => {
    const doc = await documentOf()
    const missing: string[] = []
    for (const file of routeFiles().filter(f => !OUTSIDE.includes(f))) {
      const methods = implementedMethods(file)
      expect(methods.length, file).toBeGreaterThan(0)
      for (const method of methods) if (!doc.paths[apiPath(file)]?.[method.toLowerCase()]) missing.push(`${method} ${apiPath(file)}`)
    }
    expect(missing).toEqual([])
  })

  test("covers Chaindesk's alias paths and Databerry's query", async () => {
    const doc = await documentOf()
    for (const [p, method] of [
      ['/agents/{id}/query', 'post'],
      ['/agents/query/{id}', 'post'],
      ['/datastores/query/{id}', 'post'],
      ['/api/datastores/query/{id}', 'post'],
      ['/query/{datastoreId}', 'post'],
      ['/api/query/{datastoreId}', 'post'],
    ]) {
      expect(doc.paths[p]?.[method], p).toBeDefined()
    }
    expect(doc.paths['/agents/{id}/query'].post['x-alias-of']).toBe('/api/agents/{id}/query')
  })

  test('generates request bodies from the zod schemas, aliases and stream format included', async () => {
    const doc = await documentOf()
    const query = doc.paths['/api/agents/{id}/query'].post
    const body = query.requestBody.content['application/json'].schema
    expect(body.required).toEqual(['query'])
    expect(JSON.stringify(body.properties.modelName)).toContain('gpt_3_5_turbo')
    expect(body.properties.streamEncoding).toBeDefined()
    expect(query.responses['200'].content['text/event-stream'].description).toContain('encodeURIComponent')
    expect(query.parameters.map((p: any) => p.name)).toEqual(['id', 'streamEncoding'])
    const upsert = doc.paths['/api/datastores/upsert/{datastoreId}'].post.requestBody.content['application/json'].schema
    expect(upsert.properties.documents.type).toBe('array')
  })
})
