'use client'

import { Trash2 } from 'lucide-react'
import { FormField } from '@/components/layout/form-field'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Textarea } from '@/components/ui/textarea'
import { HTTP_TOOL_METHODS } from '@/lib/domain/agent-tools'
import { Hint } from './agent-form-fields'
import { McpToolList } from './mcp-tool-list'
import type { HttpMethod, ToolFormValue } from './tool-form'

// One tool of the agent form: an HTTP API (name, description, method, URL template, headers, parameters) or an MCP
// server (name, URL, headers, allowed tools).

export function ToolEditor({ tool, index, onChange, onRemove }: { tool: ToolFormValue; index: number; onChange: (tool: ToolFormValue) => void; onRemove: () => void }) {
  const id = (field: string) => `agent-tool-${index}-${field}`
  const set = <K extends keyof ToolFormValue>(key: K, value: ToolFormValue[K]) => onChange({ ...tool, [key]: value })
  const kind = tool.type === 'http' ? 'HTTP API' : 'MCP server'
  return (
    <fieldset className="grid gap-3 rounded-lg border p-3" data-testid="agent-tool">
      <legend className="px-1 text-sm font-medium">{kind}</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        <FormField id={id('name')} label="Name">
          <Input id={id('name')} value={tool.name} onChange={e => set('name', e.target.value)} placeholder={tool.type === 'http' ? 'get_order' : 'stock'} />
        </FormField>
        {tool.type === 'http' && (
          <FormField id={id('method')} label="Method">
            <select id={id('method')} className="h-9 rounded-md border bg-background px-2 text-sm" value={tool.method} onChange={e => set('method', e.target.value as HttpMethod)}>
              {HTTP_TOOL_METHODS.map(m => <option key={m}>{m}</option>)}
            </select>
          </FormField>
        )}
      </div>
      {tool.type === 'http' && (
        <FormField id={id('description')} label="What it does (the model reads this)">
          <Input id={id('description')} value={tool.description} onChange={e => set('description', e.target.value)} placeholder="The status of an order" />
        </FormField>
      )}
      <FormField id={id('url')} label="URL">
        <Input id={id('url')} value={tool.url} onChange={e => set('url', e.target.value)} placeholder={tool.type === 'http' ? 'https://shop.example.com/api/orders/{orderId}' : 'https://mcp.example.com/mcp'} />
        {tool.type === 'http' && <Hint>{'{placeholders}'} are filled from the arguments; the other arguments go to the query string (GET, DELETE) or a JSON body.</Hint>}
      </FormField>
      <FormField id={id('headers')} label="Headers (one “Name: value” a line)">
        <Textarea id={id('headers')} rows={2} className="font-mono text-xs" value={tool.headers} onChange={e => set('headers', e.target.value)} placeholder="Authorization: Bearer …" />
        <Hint>Values are stored encrypted and shown as ********; leave ******** to keep a stored value.</Hint>
      </FormField>
      {tool.type === 'http' ? (
        <>
          <FormField id={id('parameters')} label="Parameters (JSON Schema of the arguments)">
            <Textarea id={id('parameters')} rows={5} className="font-mono text-xs" value={tool.parameters} onChange={e => set('parameters', e.target.value)} />
          </FormField>
          <div className="flex items-center gap-2">
            <Checkbox id={id('requiresApproval')} checked={tool.requiresApproval} onCheckedChange={v => set('requiresApproval', v === true)} />
            <Label htmlFor={id('requiresApproval')} className="font-normal">Each call waits for an operator&apos;s approval in the inbox</Label>
          </div>
        </>
      ) : (
        <FormField id={id('allowedTools')} label="Allowed tools (comma-separated; empty: all)">
          <Input id={id('allowedTools')} value={tool.allowedTools} onChange={e => set('allowedTools', e.target.value)} placeholder="check_stock, find_product" />
          <McpToolList tool={tool} onListed={listed => set('listed', listed)} />
        </FormField>
      )}
      <Button type="button" variant="ghost" size="sm" className="justify-self-start" onClick={onRemove}>
        <Trash2 aria-hidden /> Remove {tool.name.trim() || kind}
      </Button>
    </fieldset>
  )
}
