// A child process for tests/agents/answer-durability.test.ts: opens the embedded database in DATA_DIR (on disk, in
// its thread, as the server does), makes an organization, an API key and an agent, asks one streaming question
// through the query route, and prints `answered` (one JSON line) the moment the answer's endpoint_response arrives.
// Then it waits, to be killed with SIGKILL.
// Run with: node --conditions=react-server --import tsx scripts/reliability/answer-child.ts
import { createParser } from 'eventsource-parser'
import * as agentQuery from '@/app/api/agents/[id]/query/route'
import { createApiKey } from '@/lib/auth/api-keys'
import { getDatabase } from '@/lib/db/client'

const say = (event: string, fields: Record<string, unknown> = {}) => console.log(JSON.stringify({ event, at: Date.now(), ...fields }))

async function main() {
  const db = await getDatabase()
  const org = await db.prisma.organization.create({ data: { name: 'answer durability' } })
  const { secret } = await createApiKey({ organizationId: org.id, actor: { type: 'api_key', apiKeyId: '' } }, 'durability')
  const agent = await db.prisma.agent.create({ data: { organizationId: org.id, name: 'Durable' } })
  const request = new Request(`http://localhost/api/agents/${agent.id}/query`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'How long is the warranty?', streaming: true }),
  })
  const response = await agentQuery.POST(request, { params: Promise.resolve({ id: agent.id }) })
  if (!response.body) throw new Error(`no stream: ${response.status}`)
  const parser = createParser({
    onEvent: event => {
      if (event.event !== 'endpoint_response') return
      const answer = JSON.parse(event.data)
      say('answered', { conversationId: answer.conversationId, messageId: answer.messageId, answer: answer.answer })
    },
  })
  const decoder = new TextDecoder()
  for await (const piece of response.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(piece, { stream: true }))
  say('stream ended')
  setInterval(() => {}, 60_000) // stays until killed
}

main().catch(error => {
  say('failed', { message: String(error?.stack ?? error) })
  process.exit(1)
})
