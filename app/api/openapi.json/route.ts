import { routes } from '@/lib/http/route'
import { openApiDocument } from '@/lib/openapi/document'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // the OpenAPI 3.1 document of the whole API, without a key
  GET: async () => Response.json(openApiDocument()),
})
