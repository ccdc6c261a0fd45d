'use client'

import * as React from 'react'
import Link from 'next/link'
import { CopyButton } from '@/components/copy-button'
import { PageHeader } from '@/components/layout/page-header'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { assistantConfigs } from './assistant-configs'

const TOOLS = [
  ['list_datastores', "the organization's datastores"],
  ['search_datastore', 'the best fragments of one datastore for a query'],
  ['list_agents', "the organization's agents"],
  ['ask_agent', 'an agent’s answer, with its sources'],
] as const

/** The MCP endpoint of this service, as the browser reaches it. */
function useEndpoint(): string {
  const [origin, setOrigin] = React.useState('https://your-host')
  React.useEffect(() => setOrigin(window.location.origin), [])
  return `${origin}/api/mcp`
}

export function ConnectAssistantView() {
  const endpoint = useEndpoint()
  return (
    <>
      <PageHeader
        title="Connect an AI assistant"
        description={
          <>
            Claude, Cursor and other MCP clients can search your datastores and ask your agents. Use an API key from the{' '}
            <Link className="underline" href="/api-keys">API keys</Link> page in place of the placeholder.
          </>
        }
      />
      <div className="grid gap-4">
        <Card>
          <CardHeader>
            <CardTitle>Endpoint</CardTitle>
            <CardDescription>MCP over Streamable HTTP, with the header Authorization: Bearer &lt;API key&gt;.</CardDescription>
          </CardHeader>
          <CardContent className="flex items-center gap-2">
            <code data-testid="mcp-endpoint" className="rounded bg-muted px-2 py-1 font-mono text-sm break-all">{endpoint}</code>
            <CopyButton text={endpoint} label="Copy endpoint" />
          </CardContent>
          <CardContent>
            <ul className="list-disc pl-5 text-sm text-muted-foreground">
              {TOOLS.map(([name, what]) => (
                <li key={name}><code className="font-mono text-foreground">{name}</code>: {what}</li>
              ))}
            </ul>
          </CardContent>
        </Card>
        {assistantConfigs(endpoint).map(config => (
          <Card key={config.id} data-testid={`assistant-${config.id}`}>
            <CardHeader>
              <CardTitle>{config.name}</CardTitle>
              <CardDescription>In {config.where}</CardDescription>
            </CardHeader>
            <CardContent className="grid gap-2">
              {/* scrolls sideways on a phone: focusable, so a keyboard can scroll it */}
              <pre tabIndex={0} aria-label={`The ${config.name} configuration`} className="overflow-x-auto rounded bg-muted p-3 font-mono text-xs">
                {config.text}
              </pre>
              <CopyButton text={config.text} label={`Copy the ${config.name} configuration`} />
            </CardContent>
          </Card>
        ))}
      </div>
    </>
  )
}
