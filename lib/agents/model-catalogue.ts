import { createOpenAI } from '@ai-sdk/openai'
import { outboundFetch } from '@/lib/http/outbound-fetch'
import type { LanguageModel } from 'ai'
import { z } from 'zod'
import { config } from '@/lib/config'
import { ModelNotConfigured } from '@/lib/domain/errors'
import { AGENT_MODEL_NAMES, type AgentModelName } from '@/lib/domain/models'

// The spec's model names are Chaindesk's; they map to current model ids of the same tier. MODEL_MAP (a JSON object
// from any of these names to a model id) overrides any of them, e.g. {"model_4":"llama3.1:70b"} for Ollama.
export const DEFAULT_MODEL_CATALOGUE: Record<AgentModelName, string> = {
  model_3_5_turbo: 'gpt-4o-mini',
  model_3_5_turbo_16k: 'gpt-4o-mini',
  model_4: 'gpt-4o',
  model_4_32k: 'gpt-4o',
}

const ModelId = z.string().trim().min(1).max(200)
// unknown keys are refused: a typo such as "model4" would otherwise be silently ignored
const ModelMap = z.strictObject(Object.fromEntries(AGENT_MODEL_NAMES.map(name => [name, ModelId.optional()])) as Record<AgentModelName, z.ZodOptional<typeof ModelId>>)

/** An organization's own map (issue 27, lib/agents/organization-models.ts): overrides MODEL_MAP, name by name. */
export type ModelOverrides = Partial<Record<AgentModelName, string>>

/**
 * The catalogue in force: the defaults with MODEL_MAP applied, then the organization's own map. Throws a message
 * naming MODEL_MAP when it is invalid.
 */
export function modelCatalogue(overrides: ModelOverrides = {}): Record<AgentModelName, string> {
  return { ...environmentCatalogue(), ...overrides }
}

function environmentCatalogue(): Record<AgentModelName, string> {
  const raw = config().MODEL_MAP
  if (!raw) return { ...DEFAULT_MODEL_CATALOGUE }
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    throw new ModelNotConfigured('MODEL_MAP is not valid JSON; expected an object such as {"model_4":"gpt-4o"}')
  }
  const parsed = ModelMap.safeParse(value)
  if (!parsed.success) {
    throw new ModelNotConfigured(
      `MODEL_MAP must be a JSON object from ${AGENT_MODEL_NAMES.join(', ')} to model ids: ` +
        parsed.error.issues.map(i => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '),
    )
  }
  const overrides = Object.entries(parsed.data).filter(([, id]) => id !== undefined)
  return { ...DEFAULT_MODEL_CATALOGUE, ...Object.fromEntries(overrides) }
}

export interface ChatModel {
  /** The name asked for (the agent's, or a member's query's), which the maps turn into the id. */
  name: AgentModelName
  /** The model id sent upstream. */
  id: string
  model: LanguageModel
}

/** The chat model for a model name; ModelNotConfigured (503) names the variables to set when no provider is configured. */
export function chatModel(modelName: AgentModelName, overrides: ModelOverrides = {}): ChatModel {
  const env = config()
  if (!env.OPENAI_API_KEY) {
    throw new ModelNotConfigured(
      'No chat model is configured: set OPENAI_API_KEY (and OPENAI_BASE_URL for an OpenAI-compatible server such as Ollama or vLLM)',
    )
  }
  const id = modelCatalogue(overrides)[modelName]
  // .chat(): the Chat Completions API, which OpenAI-compatible servers implement (the default is the Responses API)
  const provider = createOpenAI({ apiKey: env.OPENAI_API_KEY, baseURL: env.OPENAI_BASE_URL, fetch: outboundFetch })
  return { name: modelName, id, model: provider.chat(id) }
}

/** What the service calls, as the start log, /api/health and the dashboard tell it: endpoints and model ids, never keys. */
export interface ModelsInForce {
  chat: { configured: boolean; endpoint: string | null; models: Record<AgentModelName, string> | null; problem: string | null }
  embeddings: { configured: boolean; endpoint: string | null; model: string | null; dimensions: number | null }
}

const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1'

/** The endpoint's URL without credentials, query or fragment (a key some servers take there stays out of logs). */
export function publicEndpoint(url: string | undefined): string {
  if (!url) return OPENAI_DEFAULT_BASE_URL
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`
  } catch {
    return '(OPENAI_BASE_URL is not a valid URL)'
  }
}

export function modelsInForce(overrides: ModelOverrides = {}): ModelsInForce {
  const env = config()
  const configured = !!env.OPENAI_API_KEY
  const endpoint = configured ? publicEndpoint(env.OPENAI_BASE_URL) : null
  let models: Record<AgentModelName, string> | null = null
  let problem: string | null = configured ? null : 'No chat model is configured: set OPENAI_API_KEY (and OPENAI_BASE_URL for an OpenAI-compatible server)'
  try {
    models = modelCatalogue(overrides)
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error)
  }
  return {
    chat: { configured: configured && models !== null, endpoint, models, problem },
    embeddings: configured
      ? { configured: true, endpoint, model: env.EMBEDDINGS_MODEL, dimensions: env.EMBEDDINGS_DIMENSIONS }
      : { configured: false, endpoint: null, model: null, dimensions: null },
  }
}
