import NextAuth from 'next-auth'
import { authOptions } from '@/lib/auth/session'
import { InvalidRequest } from '@/lib/http/errors'
import { clientAddress, errorResponse, toErrorResponse } from '@/lib/http/route'

type Ctx = { params: Promise<{ nextauth: string[] }> }
// next-auth is built per request so its options (and the secret in DATA_DIR) are read at run time, not at build
const handler = async (req: Request, ctx: Ctx) => {
  try {
    return await NextAuth(authOptions({ clientAddress: clientAddress(req) }))(req, { params: await ctx.params })
  } catch (error) {
    // next-auth parses the body itself: a malformed one (e.g. truncated JSON) is the caller's error, not a 500
    if (error instanceof SyntaxError) return errorResponse(new InvalidRequest('The sign-in request body is not valid JSON'))
    return toErrorResponse(error)
  }
}
export { handler as GET, handler as POST }
