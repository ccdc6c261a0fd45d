import { endpoint, endpoints } from '@/lib/api/endpoint'
import { ServerModelList } from '@/lib/domain/model-server'
import { listServerModels } from '@/lib/models/server-models'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/models', {
  GET: endpoint({
    summary: "The model server's own model list (GET /v1/models of OPENAI_BASE_URL); a 503 saying why when it cannot be read",
    tag: 'Service',
    access: { scope: 'admin' },
    response: ServerModelList,
    handler: () => listServerModels(),
  }),
})
