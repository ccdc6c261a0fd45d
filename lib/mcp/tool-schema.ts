import { z, type ZodType } from 'zod'
import type { Contract } from '@/lib/api/endpoint'

// An MCP tool of this service stands for a REST endpoint (DESIGN.md §12): its description and input schema are
// derived from that endpoint's declaration (app/api/registry.ts), never written again. The path's parameters join
// the body's fields, under the tool's own names (`{id}` of /api/datastores/{id}/query is `datastoreId`).

/** Which REST endpoint a tool stands for, and how its input maps onto the endpoint's. */
export interface ToolOrigin {
  contract: Contract
  /** Each path parameter's name in the tool's input ({ id: 'datastoreId' }). */
  params?: Record<string, string>
  /** The body fields offered to the assistant (all when absent). */
  fields?: readonly string[]
}

/**
 * A field as an assistant sends it: without the preprocessing some Chaindesk clients need (a null or "" taken as
 * absent), which has no JSON Schema and would stop the tool's schema from being listed.
 */
function plainField(schema: ZodType): ZodType {
  if (schema instanceof z.ZodOptional) return plainField(schema.unwrap() as ZodType).optional()
  if (schema instanceof z.ZodPipe && schema.in instanceof z.ZodTransform) return plainField(schema.out as ZodType)
  return schema
}

function bodyShape(origin: ToolOrigin): Record<string, ZodType> {
  const body = origin.contract.body
  if (!(body instanceof z.ZodObject)) return {}
  const shape = body.shape as Record<string, ZodType>
  const names = origin.fields ?? Object.keys(shape)
  return Object.fromEntries(names.map(name => [name, plainField(shape[name])]))
}

/** The tool's input: the endpoint's path parameters (ids) and the chosen fields of its body. */
export function toolInputSchema(origin: ToolOrigin): z.ZodObject {
  const ids = Object.entries(origin.params ?? {}).map(([param, name]) => [name, z.string().min(1).max(128).describe(`The ${param} of ${origin.contract.path}`)])
  return z.object({ ...Object.fromEntries(ids), ...bodyShape(origin) })
}

/** The tool's description: the endpoint's summary and description, and which endpoint it is. */
export function toolDescription(origin: ToolOrigin, purpose: string): string {
  const { summary, description, method, path } = origin.contract
  return [purpose, description, `The REST endpoint: ${method} ${path} (${summary}).`].filter(Boolean).join('\n\n')
}
