import { NotFound } from '@/lib/http/errors'
import { errorResponse, requestIdOf } from '@/lib/http/route'

// Any /api path no route matches: the JSON 404 rather than the HTML page
const notFound = async (req: Request) => {
  const requestId = requestIdOf(req)
  const res = errorResponse(new NotFound(`API endpoint ${new URL(req.url).pathname}`), requestId)
  res.headers.set('x-request-id', requestId)
  return res
}
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE }
