import { z } from 'zod'
import { authenticate } from '@/lib/auth/tenant'
import { allowsDuplicates } from '@/lib/datastores/duplicates'
import { parseUpsertBody, upsertDocuments } from '@/lib/datastores/upsert'
import { parseId, parseJson } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: async (req, { params }) => {
    const ctx = await authenticate(req)
    const datastoreId = await parseId(params, 'datastoreId')
    const documents = parseUpsertBody(await parseJson(req, z.unknown()))
    return Response.json(await upsertDocuments(ctx, datastoreId, documents, { allowDuplicates: allowsDuplicates(req.url) }))
  },
})
