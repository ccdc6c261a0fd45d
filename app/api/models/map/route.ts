import { endpoint, endpoints } from '@/lib/api/endpoint'
import { modelMapView, saveModelMap } from '@/lib/agents/organization-models'
import { ModelMapBody, ModelMapResource } from '@/lib/domain/model-server'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/models/map', {
  GET: endpoint({
    summary: "The model id each modelName is sent as: the organization's map over MODEL_MAP over the defaults",
    tag: 'Service',
    access: { scope: 'admin' },
    response: ModelMapResource,
    handler: ({ ctx }) => modelMapView(ctx),
  }),
  PUT: endpoint({
    summary: "Replace the organization's model map (a name absent or null follows MODEL_MAP); applied to the next answer",
    tag: 'Service',
    access: { scope: 'admin' },
    body: ModelMapBody,
    response: ModelMapResource,
    handler: ({ ctx, body }) => saveModelMap(ctx, body),
  }),
})
