// The endpoint registry (app/api/registry.ts) is the API: every route file is in it, every method a route file
// answers is declared there, each declaration sits at the path its file serves, and every alias a declaration names
// is one that proxy.ts rewrites to it.
import { describe, expect, test } from 'vitest'
import { apiContracts, ROUTE_MODULES } from '@/app/api/registry'
import { resolveAlias } from '@/lib/http/aliases'
import { METHODS } from '@/lib/api/endpoint'
import { EXCLUDED, fileOf, handlerOf, routeFiles } from '../helpers/hardening/endpoints'

const OUTSIDE = ['app/api/[...path]/route.ts', ...Object.keys(EXCLUDED)]

describe('the endpoint registry', () => {
  test('holds every route file of app/api, each once', () => {
    const declared = new Set(apiContracts().map(c => fileOf(c.path)))
    const files = routeFiles().filter(f => !OUTSIDE.includes(f))
    expect(files.filter(f => !declared.has(f)), 'route files whose endpoints are not in the registry').toEqual([])
    expect([...declared].filter(f => !files.includes(f)), 'declarations at a path no route file serves').toEqual([])
    expect(ROUTE_MODULES.length).toBe(files.length)
  })

  test("every method a route file exports is its declaration's, or the JSON 405", async () => {
    const undeclared: string[] = []
    for (const file of routeFiles().filter(f => !OUTSIDE.includes(f))) {
      for (const method of METHODS) {
        const handler = (await handlerOf(file, method)) as { contract?: { method: string; path: string } } | undefined
        if (!handler || !('contract' in handler)) undeclared.push(`${method} ${file}`)
        else if (handler.contract && fileOf(handler.contract.path) !== file) undeclared.push(`${method} ${file} declares ${handler.contract.path}`)
      }
    }
    expect(undeclared, 'methods exported without endpoints({...}), or declared at another path').toEqual([])
  })

  test('every alias a declaration names is rewritten to its path by the proxy', () => {
    const wrong: string[] = []
    for (const c of apiContracts()) {
      for (const alias of c.aliases ?? []) {
        const concrete = (p: string) => p.replace(/\{(\w+)\}/g, 'id123')
        const headers = new Headers({ authorization: 'Bearer key', 'content-type': 'application/json' })
        const target = resolveAlias(c.method, concrete(alias), headers, 'localhost:3000')
        if (target !== concrete(c.path)) wrong.push(`${c.method} ${alias} → ${target} (declared for ${c.path})`)
      }
    }
    expect(wrong).toEqual([])
  })

  test('every declaration names its summary and access, and a response unless it is a download', () => {
    for (const c of apiContracts()) {
      const where = `${c.method} ${c.path}`
      expect(c.summary.length, where).toBeGreaterThan(5)
      expect(c.access, where).toBeDefined()
      expect(Boolean(c.response) !== Boolean(c.download), `${where}: exactly one of response and download`).toBe(true)
    }
  })
})
