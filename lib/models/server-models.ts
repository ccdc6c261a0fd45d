import { modelCatalogue } from '@/lib/agents/model-catalogue'
import { organizationModelMap } from '@/lib/agents/organization-models'
import { config } from '@/lib/config'
import { ModelNotConfigured } from '@/lib/domain/errors'
import type { ConnectionTestResult, ServerModelList } from '@/lib/domain/model-server'
import type { AgentModelName } from '@/lib/domain/models'
import type { TenantContext } from '@/lib/domain/tenant'
import { UpstreamUnavailable } from '@/lib/http/errors'
import { modelServer, type ModelServer } from './client'
import { describeModelServerFailure } from './failure-words'

// The Models page's two questions to the server (issue 27): which models it serves (the official SDK's
// models.list()), and whether a tiny chat and a tiny embeddings call go through, each said in plain words.

function configuredServer(timeoutMs: number): ModelServer {
  const server = modelServer({ timeoutMs })
  if (!server) throw new ModelNotConfigured('No model server is configured: set OPENAI_API_KEY (and OPENAI_BASE_URL for an OpenAI-compatible server)')
  return server
}

const callTimeoutMs = () => config().AGENT_MODEL_TIMEOUT_SECONDS * 1000

/** The server's own model list, sorted by id; a server that cannot be read is a 503 saying why. */
export async function listServerModels(): Promise<ServerModelList> {
  const { client, endpoint } = configuredServer(callTimeoutMs())
  try {
    const models: ServerModelList['models'] = []
    for await (const model of client.models.list()) models.push({ id: model.id, ownedBy: model.owned_by ?? null })
    return { endpoint, models: models.sort((a, b) => a.id.localeCompare(b.id)) }
  } catch (error) {
    throw new UpstreamUnavailable(`The model list could not be read: ${describeModelServerFailure(error, endpoint)}`)
  }
}

async function step(model: string, call: () => Promise<string>, describe: (error: unknown) => string): Promise<ConnectionTestResult['chat']> {
  const started = performance.now()
  try {
    const said = await call()
    const latencyMs = Math.round(performance.now() - started)
    return { ok: true, model, message: `${said} in ${latencyMs} ms`, latencyMs }
  } catch (error) {
    return { ok: false, model, message: describe(error), latencyMs: null }
  }
}

/** One tiny chat (with the model id `modelName` maps to for this organization) and one tiny embeddings call. */
export async function testModelConnection(ctx: TenantContext, modelName: AgentModelName = 'model_3_5_turbo'): Promise<ConnectionTestResult> {
  const env = config()
  const { client, endpoint } = configuredServer(callTimeoutMs())
  let chatId: string
  try {
    chatId = modelCatalogue(await organizationModelMap(ctx.organizationId))[modelName]
  } catch (error) {
    throw new ModelNotConfigured(error instanceof Error ? error.message : String(error))
  }
  const [chat, embeddings] = await Promise.all([
    step(
      chatId,
      async () => {
        const res = await client.chat.completions.create({ model: chatId, messages: [{ role: 'user', content: 'Reply with the word OK.' }], max_tokens: 5 })
        return res.choices?.length ? 'the model answered' : 'the server answered without a choice'
      },
      error => describeModelServerFailure(error, endpoint, chatId),
    ),
    step(
      env.EMBEDDINGS_MODEL,
      async () => {
        const res = await client.embeddings.create({ model: env.EMBEDDINGS_MODEL, input: 'connection test', dimensions: env.EMBEDDINGS_DIMENSIONS, encoding_format: 'float' })
        const size = res.data?.[0]?.embedding?.length ?? 0
        if (size !== env.EMBEDDINGS_DIMENSIONS) throw new Error(`the model returned ${size} dimensions; EMBEDDINGS_DIMENSIONS is ${env.EMBEDDINGS_DIMENSIONS}`)
        return `${size} dimensions returned`
      },
      error => describeModelServerFailure(error, endpoint, env.EMBEDDINGS_MODEL),
    ),
  ])
  return { endpoint, chat, embeddings }
}
