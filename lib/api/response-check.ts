import { z } from 'zod'
import type { Contract } from './endpoint'

// Tests set API_VALIDATE_RESPONSES=1: every JSON success is then checked against its declared schema, strictly, so
// a field a handler adds without documenting it fails the test that made the request (tests/api/contracts.test.ts)
export const validating = () => process.env.API_VALIDATE_RESPONSES === '1'
const validated = ((globalThis as { __validatedEndpoints?: Set<string> }).__validatedEndpoints ??= new Set<string>())

/** The endpoints whose JSON success was validated against its schema in this process (tests read it). */
export function validatedEndpoints(): ReadonlySet<string> {
  return validated
}

export class UndocumentedResponse extends Error {}

export function checkResponse(contract: Contract, status: number, body: unknown): void {
  const key = `${contract.method} ${contract.path}`
  if (!contract.response) throw new UndocumentedResponse(`${key} answered JSON but declares no response schema`)
  const json = body === undefined ? undefined : JSON.parse(JSON.stringify(body))
  const parsed = contract.response.safeParse(json)
  if (!parsed.success) {
    throw new UndocumentedResponse(`${key} answered ${status} with a body its response schema refuses: ${z.prettifyError(parsed.error)}`)
  }
  validated.add(key)
}



export async function checkRawResponse(contract: Contract, res: Response): Promise<void> {
  const key = `${contract.method} ${contract.path}`
  if (contract.protocol) {
    if (res.ok && res.headers.get('content-type')?.startsWith('application/json')) checkResponse(contract, res.status, await res.clone().json())
    return
  }
  if (!contract.stream && !contract.download) throw new UndocumentedResponse(`${key} answered a raw response but declares neither stream nor download`)
  if (contract.stream && !contract.download && res.headers.get('content-type') !== 'text/event-stream') throw new UndocumentedResponse(`${key} answered a raw response that is not its event stream`)
}
