import { authenticate } from '@/lib/auth/tenant'
import { JsonDatasourceBody } from '@/lib/datastores/schemas'
import { allowsDuplicates } from '@/lib/datastores/duplicates'
import { createFileDatasource, readFileUpload } from '@/lib/datastores/uploads'
import { createJsonDatasource } from '@/lib/datastores/create-datasource'
import { parseJson, parseMultipart } from '@/lib/http/body'
import { UnsupportedMediaType } from '@/lib/http/errors'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // §4.5: a file as multipart/form-data, or a web page or site as JSON
  POST: async req => {
    const ctx = await authenticate(req)
    const type = req.headers.get('content-type')?.split(';')[0].trim().toLowerCase() ?? null
    if (type === 'multipart/form-data') {
      const upload = await readFileUpload(ctx, max => parseMultipart(req, max), 'datasource')
      // a duplicate: 200 with the datasource that holds the same content (README "Duplicates")
      const created = await createFileDatasource(ctx, upload.datastoreId!, upload, { allowDuplicates: allowsDuplicates(req.url) })
      return Response.json(created.datasource, { status: created.duplicate ? 200 : 201 })
    }
    if (type === 'application/json') {
      const body = await parseJson(req, JsonDatasourceBody)
      return Response.json(await createJsonDatasource(ctx, body), { status: 201 })
    }
    throw new UnsupportedMediaType(['multipart/form-data', 'application/json'], type)
  },
})
