// Chaindesk's chat widget, unmodified (npm @databerry/chat-bubble@1.0.142, a devDependency), on a page served from
// another origin. The one fixture step: its build-time host constant, "https://app.chaindesk.ai", is pointed at the
// app under test. Nothing else of the bundle changes.
import fs from 'node:fs'
import http from 'node:http'
import { createRequire } from 'node:module'
import path from 'node:path'

const CHAINDESK_HOST = 'https://app.chaindesk.ai'

/** The widget's bundle with its host constant pointed at `appUrl`. */
export function widgetBundle(appUrl: string): string {
  const require = createRequire(import.meta.url)
  const pkg = require.resolve('@databerry/chat-bubble/package.json')
  const source = fs.readFileSync(path.join(path.dirname(pkg), 'dist/chatbox/index.js'), 'utf8')
  if (!source.includes(CHAINDESK_HOST)) throw new Error('the widget bundle no longer holds its host constant')
  return source.replaceAll(CHAINDESK_HOST, appUrl)
}

/** A site on its own origin (127.0.0.1, a free port) that embeds the bubble of `agentId`, as Chaindesk's snippet does. */
export async function startWidgetSite(appUrl: string): Promise<{ url: string; pageFor: (agentId: string) => string; close: () => Promise<void> }> {
  const bundle = widgetBundle(appUrl)
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site')
    if (url.pathname === '/chatbox.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(bundle)
      return
    }
    const agentId = url.searchParams.get('agent') ?? ''
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html><head><title>A shop</title></head>
<body><h1>A shop on another site</h1>
<script type="module">
  import Chatbox from '/chatbox.js'
  Chatbox.initBubble({ agentId: ${JSON.stringify(agentId)} })
</script></body></html>`)
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  const url = `http://127.0.0.1:${port}`
  return {
    url,
    pageFor: agentId => `${url}/?agent=${encodeURIComponent(agentId)}`,
    close: () => new Promise(resolve => server.close(() => resolve())),
  }
}
