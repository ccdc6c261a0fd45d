// A download streamed from lines as they are produced (an export of any size keeps memory flat); a client that
// goes away stops the producer.

export function linesResponse(lines: AsyncGenerator<string>, { contentType, filename }: { contentType: string; filename: string }): Response {
  const encoder = new TextEncoder()
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await lines.next()
      if (next.done) controller.close()
      else controller.enqueue(encoder.encode(next.value))
    },
    async cancel() {
      await lines.return(undefined)
    },
  })
  return new Response(body, { headers: { 'content-type': contentType, 'content-disposition': `attachment; filename="${filename}"` } })
}
