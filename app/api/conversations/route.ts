import { authenticate } from '@/lib/auth/tenant'
import { parseSearchParams } from '@/lib/http/body'
import { routes } from '@/lib/http/route'
import { InboxListParams } from '@/lib/inbox/filters'
import { listInbox } from '@/lib/inbox/list'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // the organization's conversations, most recently active first, filtered (the inbox); Activepieces checks a key with it
  GET: async req => {
    const ctx = await authenticate(req)
    return Response.json(await listInbox(ctx, parseSearchParams(req, InboxListParams)))
  },
})
