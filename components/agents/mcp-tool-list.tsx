'use client'

import { useMutation } from '@tanstack/react-query'
import { RefreshCw } from 'lucide-react'
import { useParams } from 'next/navigation'
import { toast } from 'sonner'
import { api } from '@/components/api-client'
import { Button } from '@/components/ui/button'
import { Hint } from './agent-form-fields'
import type { ToolFormValue } from './tool-form'

// An MCP server's tools as the service listed them when the agent was saved (issue 25), and "Refresh tools", which
// lists them again (POST /api/agents/{id}/tools/refresh): answers offer the kept list without asking the server.

export function McpToolList({ tool, onListed }: { tool: ToolFormValue; onListed: (listed: ToolFormValue['listed']) => void }) {
  const { id } = useParams<{ id?: string }>()
  const refresh = useMutation({
    mutationFn: () => api('POST /api/agents/{id}/tools/refresh', { params: { id: id! } }),
    onSuccess: agent => {
      const server = agent.tools.find(t => t.type === 'mcp' && t.name === tool.name.trim())
      if (server?.type === 'mcp') onListed({ tools: server.tools.map(t => t.name), error: server.listError })
      toast.success('Tools listed again')
    },
    onError: error => toast.error(`Could not refresh the tools: ${error.message}`),
  })
  const { listed } = tool
  return (
    <div className="grid gap-1" data-testid="mcp-tool-list">
      {listed === null ? (
        <Hint>The server&apos;s tools are listed when the agent is saved.</Hint>
      ) : listed.error ? (
        <p className="text-xs text-destructive" role="status">{listed.error}</p>
      ) : (
        <Hint>Tools: {listed.tools.length ? listed.tools.join(', ') : 'none'}</Hint>
      )}
      {id && id !== 'new' && (
        <Button type="button" variant="outline" size="sm" className="justify-self-start" onClick={() => refresh.mutate()} disabled={refresh.isPending}>
          <RefreshCw aria-hidden /> Refresh tools
        </Button>
      )}
    </div>
  )
}
