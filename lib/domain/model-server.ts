// The model server as the dashboard's Models page sees it (issue 27): its own model list, the organization's map
// from modelName values to model ids, and the connection test. Zod schemas, types inferred.
import { z } from 'zod'
import { AGENT_MODEL_NAMES, type AgentModelName } from './models'

const ModelId = z.string().trim().min(1).max(200)
const byName = <T extends z.ZodType>(value: T) => Object.fromEntries(AGENT_MODEL_NAMES.map(name => [name, value])) as Record<AgentModelName, T>

/** The model id each modelName is sent as. */
export const ModelNameMap = z.strictObject(byName(z.string())).meta({ id: 'ModelNameMap' })

/** PUT /api/models/map: the organization's whole map; a name absent or null follows MODEL_MAP (else the default). */
export const ModelMapBody = z.strictObject(byName(ModelId.nullable().optional()))
export type ModelMapBody = z.infer<typeof ModelMapBody>

export const ModelMapResource = z
  .strictObject({
    organization: z.strictObject(byName(z.string().optional())).describe("This organization's own map: overrides MODEL_MAP, applied to the next answer"),
    environment: ModelNameMap.nullable().describe('The defaults with MODEL_MAP applied; null when MODEL_MAP is invalid'),
    effective: ModelNameMap.nullable().describe('What answers are sent as: the organization map, else the environment'),
    problem: z.string().nullable().describe('Why the environment map cannot be read (an invalid MODEL_MAP)'),
  })
  .meta({ id: 'ModelMap' })
export type ModelMapResource = z.infer<typeof ModelMapResource>

export const ServerModelList = z
  .strictObject({
    endpoint: z.string().describe('OPENAI_BASE_URL without credentials'),
    models: z.array(z.strictObject({ id: z.string(), ownedBy: z.string().nullable() })),
  })
  .meta({ id: 'ServerModelList' })
export type ServerModelList = z.infer<typeof ServerModelList>

const ConnectionStep = z.strictObject({
  ok: z.boolean(),
  model: z.string().describe('The model id called'),
  message: z.string().describe('What happened, in plain words'),
  latencyMs: z.number().int().nullable(),
})

export const ConnectionTestBody = z.object({ modelName: z.enum(AGENT_MODEL_NAMES).optional().describe('The modelName whose model id the chat is sent to (model_3_5_turbo by default)') })

export const ConnectionTestResult = z
  .strictObject({ endpoint: z.string(), chat: ConnectionStep, embeddings: ConnectionStep })
  .meta({ id: 'ConnectionTestResult' })
export type ConnectionTestResult = z.infer<typeof ConnectionTestResult>
