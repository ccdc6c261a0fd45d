import { getPrisma } from '@/lib/db/client'
import { AGENT_MODEL_NAMES } from '@/lib/domain/models'
import type { ModelMapBody, ModelMapResource } from '@/lib/domain/model-server'
import type { TenantContext } from '@/lib/domain/tenant'
import { modelCatalogue, type ModelOverrides } from './model-catalogue'

// An organization's own map from modelName values to model ids (issue 27), edited on the Models page: stored on the
// organization, read for every answer (so a change applies to the next one, in every process, without a restart),
// and laid over MODEL_MAP name by name.

/** The organization's overrides; whatever is stored that is not a model name with a model id is ignored. */
export async function organizationModelMap(organizationId: string): Promise<ModelOverrides> {
  const prisma = await getPrisma()
  const org = await prisma.organization.findUnique({ where: { id: organizationId }, select: { modelMap: true } })
  return modelOverridesOf(org?.modelMap)
}

/** A stored map, cleaned: what is not a model name with a model id is left out. */
export function modelOverridesOf(value: unknown): ModelOverrides {
  if (!value || typeof value !== 'object') return {}
  const entries = AGENT_MODEL_NAMES.map(name => [name, (value as Record<string, unknown>)[name]] as const)
  return Object.fromEntries(entries.filter(([, id]) => typeof id === 'string' && id.trim() !== '')) as ModelOverrides
}

/** The map as the Models page shows it: the organization's, the environment's, and the result. */
export async function modelMapView(ctx: TenantContext): Promise<ModelMapResource> {
  const organization = await organizationModelMap(ctx.organizationId)
  try {
    return { organization, environment: modelCatalogue(), effective: modelCatalogue(organization), problem: null }
  } catch (error) {
    return { organization, environment: null, effective: null, problem: error instanceof Error ? error.message : String(error) }
  }
}

/** Replaces the organization's map: a name absent or null follows the environment again. */
export async function saveModelMap(ctx: TenantContext, body: ModelMapBody): Promise<ModelMapResource> {
  const map = modelOverridesOf(Object.fromEntries(Object.entries(body).map(([name, id]) => [name, id?.trim()])))
  const prisma = await getPrisma()
  await prisma.organization.update({ where: { id: ctx.organizationId }, data: { modelMap: map } })
  return modelMapView(ctx)
}
