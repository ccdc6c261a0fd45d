import { timingSafeEqual } from 'node:crypto'
import { identify } from './tenant'
import { config } from '@/lib/config'

/**
 * Whether a health request may read the details: `?deep=1` with `Authorization: Bearer <METRICS_TOKEN>`, or any
 * caller identify() accepts (an API key, a dashboard session). A wrong or absent credential gets the short answer,
 * never an error: a load balancer's probe must not fail for it.
 */
export async function mayReadHealthDetails(req: Request): Promise<boolean> {
  const token = config().METRICS_TOKEN
  const given = /^Bearer\s+(\S+)$/i.exec(req.headers.get('authorization')?.trim() ?? '')?.[1]
  if (token && given && new URL(req.url).searchParams.get('deep') === '1' && sameSecret(given, token)) return true
  try {
    return (await identify(req)) !== null
  } catch {
    return false
  }
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}
