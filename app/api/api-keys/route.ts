import { z } from 'zod'
import { createApiKey, listApiKeys } from '@/lib/auth/api-keys'
import { authenticate } from '@/lib/auth/tenant'
import { parseJson } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

const CreateApiKeyBody = z.object({ name: z.string().trim().min(1).max(100) })

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: async req => {
    const ctx = await authenticate(req)
    return Response.json(await listApiKeys(ctx))
  },
  POST: async req => {
    const ctx = await authenticate(req)
    const body = await parseJson(req, CreateApiKeyBody)
    const { apiKey, secret } = await createApiKey(ctx, body.name)
    return Response.json({ ...apiKey, secret }, { status: 201 })
  },
})
