import { authenticate } from '@/lib/auth/tenant'
import { findDatastore } from '@/lib/datastores/datastores'
import { allowsDuplicates } from '@/lib/datastores/duplicates'
import { createFileDatasource, readFileUpload } from '@/lib/datastores/uploads'
import { parseId, parseMultipart } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // §4.6: multipart with `file`, optional `fileName` and `custom_id`; answers the Datasource resource
  POST: async (req, { params }) => {
    const ctx = await authenticate(req)
    const datastoreId = await parseId(params, 'datastoreId')
    await findDatastore(ctx, datastoreId) // 404 before reading a large body
    const upload = await readFileUpload(ctx, max => parseMultipart(req, max), 'external')
    const created = await createFileDatasource(ctx, datastoreId, upload, { allowDuplicates: allowsDuplicates(req.url) })
    return Response.json(created.datasource, { status: created.duplicate ? 200 : 201 })
  },
})
