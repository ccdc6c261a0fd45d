import { z } from 'zod'
import { endpoint, endpoints } from '@/lib/api/endpoint'
import { MemberResource } from '@/lib/domain/support'
import { listMembers } from '@/lib/support'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/members', {
  GET: endpoint({
    summary: "The organization's members (whom a conversation can be assigned to)",
    tag: 'Account',
    access: { scope: 'conversations:read' },
    response: z.array(MemberResource),
    handler: ({ ctx }) => listMembers(ctx),
  }),
})
