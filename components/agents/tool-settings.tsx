'use client'

import { Plus } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { FieldError } from './agent-form-fields'
import { BuiltinToolFields, configurableTools } from './builtin-tool-fields'
import { ToolEditor } from './tool-editor'
import { newTool, type ToolFormValue } from './tool-form'

// The agent's tools (issue 25): HTTP APIs and MCP servers the model may call while it answers, and the built-in
// actions (README "Tools").

export function ToolSettings({ tools, onChange, error }: { tools: ToolFormValue[]; onChange: (tools: ToolFormValue[]) => void; error?: string }) {
  const replace = (index: number, tool: ToolFormValue) => onChange(tools.map((t, i) => (i === index ? tool : t)))
  return (
    <Card>
      <CardHeader>
        <CardTitle>Tools</CardTitle>
        <CardDescription>Actions, APIs and MCP servers the agent may use while it answers: hand over to a person, look up an order, check stock, open a ticket.</CardDescription>
      </CardHeader>
      <CardContent id="agent-tools" tabIndex={-1} className="grid gap-3 outline-none">
        <BuiltinToolFields tools={tools} onChange={onChange} />
        {configurableTools(tools).map(({ tool, index }) => (
          <ToolEditor key={index} tool={tool} index={index} onChange={t => replace(index, t)} onRemove={() => onChange(tools.filter((_, i) => i !== index))} />
        ))}
        <FieldError id="agent-tools-error" message={error} />
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="outline" size="sm" onClick={() => onChange([...tools, newTool('http')])}>
            <Plus aria-hidden /> Add an HTTP API
          </Button>
          <Button type="button" variant="outline" size="sm" onClick={() => onChange([...tools, newTool('mcp')])}>
            <Plus aria-hidden /> Add an MCP server
          </Button>
        </div>
      </CardContent>
    </Card>
  )
}
