import { findDatastore } from '@/lib/datastores/datastores'
import { DUPLICATES_RULE, DuplicatesParams } from '@/lib/datastores/duplicates'
import { createFileDatasource, readFileUpload } from '@/lib/datastores/uploads'
import { CreatedDatasource } from '@/lib/domain/datastores'
import { parseMultipart } from '@/lib/http/body'
import { endpoint, endpoints, reply } from '@/lib/api/endpoint'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/external/datastores/file-upload/{datastoreId}', {
  // §4.6: multipart with `file`, optional `fileName` and `custom_id`; answers the Datasource resource
  POST: endpoint({
    summary: 'Upload a file (spec §4.6)',
    description: DUPLICATES_RULE,
    access: { scope: 'datastores:write' },
    query: DuplicatesParams,
    form: 'multipart',
    response: CreatedDatasource,
    status: 201,
    handler: async ({ req, ctx, params, query }) => {
      await findDatastore(ctx, params.datastoreId) // 404 before reading a large body
      const upload = await readFileUpload(ctx, max => parseMultipart(req, max), 'external')
      const created = await createFileDatasource(ctx, params.datastoreId, upload, query)
      return reply(created.datasource, created.duplicate ? 200 : 201)
    },
  }),
})
