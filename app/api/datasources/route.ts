import { createJsonDatasource } from '@/lib/datastores/create-datasource'
import { DUPLICATES_RULE, DuplicatesParams } from '@/lib/datastores/duplicates'
import { JsonDatasourceBody } from '@/lib/datastores/schemas'
import { createFileDatasource, readFileUpload } from '@/lib/datastores/uploads'
import { CreatedDatasource } from '@/lib/domain/datastores'
import { mediaType, parseJson, parseMultipart } from '@/lib/http/body'
import { endpoint, endpoints, reply } from '@/lib/api/endpoint'
import { UnsupportedMediaType } from '@/lib/http/errors'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/datasources', {
  // §4.5: a file as multipart/form-data, or a web page or site as JSON
  POST: endpoint({
    summary: 'Create a datasource (spec §4.5): JSON (web) or multipart (file)',
    description: DUPLICATES_RULE,
    access: { scope: 'datastores:write' },
    query: DuplicatesParams,
    form: 'json-or-multipart',
    response: CreatedDatasource,
    status: 201,
    aliases: ['/datasources'],
    handler: async ({ req, ctx, query }) => {
      const type = mediaType(req)
      if (type === 'multipart/form-data') {
        const upload = await readFileUpload(ctx, max => parseMultipart(req, max), 'datasource')
        // a duplicate: 200 with the datasource that holds the same content (README "Duplicates")
        const created = await createFileDatasource(ctx, upload.datastoreId!, upload, query)
        return reply(created.datasource, created.duplicate ? 200 : 201)
      }
      if (type === 'application/json') return createJsonDatasource(ctx, await parseJson(req, JsonDatasourceBody))
      throw new UnsupportedMediaType(['multipart/form-data', 'application/json'], type)
    },
  }),
})
