import type { ConnectionProvider } from '@/lib/domain/connections'
import { InvalidRequest, UpstreamUnavailable } from '@/lib/http/errors'
import { messageOf } from '@/lib/ingest/errors'
import { NotionRefused, notionIntegrationName } from '@/lib/ingest/kinds/notion/api'

/**
 * Asks the provider whether it accepts a token, before it is saved: refused is a 400 saying so; a provider that
 * cannot be reached is a 502 (the token may be fine). The token is never part of either message.
 */
export async function checkToken(provider: ConnectionProvider, token: string): Promise<void> {
  try {
    await CHECKS[provider](token)
  } catch (error) {
    if (error instanceof NotionRefused) {
      throw new InvalidRequest(`Notion refused this token (${error.status}): copy the "Internal Integration Secret" of your integration at notion.so/my-integrations`, { field: 'token' })
    }
    throw new UpstreamUnavailable(`Notion could not be reached to check the token: ${messageOf(error)}`, 502)
  }
}

const CHECKS: Record<ConnectionProvider, (token: string) => Promise<unknown>> = {
  notion: token => notionIntegrationName(token),
}
