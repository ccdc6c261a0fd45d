import { NotFound } from '@/lib/http/errors'
import { errorResponse } from '@/lib/http/route'

// Any /api path no route matches: the JSON 404 rather than the HTML page
const notFound = async (req: Request) => errorResponse(new NotFound(`API endpoint ${new URL(req.url).pathname}`))
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE }
