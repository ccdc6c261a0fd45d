// The API calls that connect Notion and add its content, as a client makes them (route handlers called in-process).
import { expect } from 'vitest'
import * as connectionsRoute from '@/app/api/connections/route'
import * as datasourcesRoute from '@/app/api/datasources/route'
import { call } from './http'

/** A Notion connection made through the API, answered as the API answers it. */
export async function connect(headers: Record<string, string>, token: string) {
  const res = await call(connectionsRoute.POST, '/api/connections', { method: 'POST', headers, body: { name: 'Support docs', token } })
  expect(res.status, res.text).toBe(201)
  return res.json as { id: string; secretPrefix: string }
}

/** A notion datasource made through the API. */
export async function addNotion(headers: Record<string, string>, datastoreId: string, config: { connectionId: string; rootId: string; rootType: 'page' | 'database' }) {
  return call(datasourcesRoute.POST, '/api/datasources', { method: 'POST', headers, body: { datastoreId, type: 'notion', config } })
}
