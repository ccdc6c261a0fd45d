import NextAuth from 'next-auth'
import { authOptions } from '@/lib/auth/session'

type Ctx = { params: Promise<{ nextauth: string[] }> }
// next-auth is built per request so its options (and the secret in DATA_DIR) are read at run time, not at build
const handler = async (req: Request, ctx: Ctx) => NextAuth(authOptions())(req, { params: await ctx.params })
export { handler as GET, handler as POST }
