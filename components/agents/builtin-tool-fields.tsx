'use client'

import { Checkbox } from '@/components/ui/checkbox'
import { Label } from '@/components/ui/label'
import { BUILTIN_TOOL_TYPES, type BuiltinToolType } from '@/lib/agents/tools/schemas'
import { isBuiltin, newTool, type ToolFormValue } from './tool-form'

// The built-in actions (issues 23, 25) as checkboxes: the model may hand the conversation to a person, resolve it,
// keep the customer's contact. Each is a tool of the list without settings; checking adds it, unchecking removes it.

const BUILTINS: Record<BuiltinToolType, { label: string; hint: string }> = {
  request_human: { label: 'Hand over to a person', hint: 'request_human: the conversation waits for your team (the support prompt then offers a person)' },
  mark_as_resolved: { label: 'Mark conversations as resolved', hint: 'mark_as_resolved: when the customer says they are done' },
  lead_capture: { label: "Keep the customer's contact", hint: 'lead_capture: the email (and name, phone) the customer gives, on the Leads page' },
}

export function BuiltinToolFields({ tools, onChange }: { tools: ToolFormValue[]; onChange: (tools: ToolFormValue[]) => void }) {
  const has = (type: BuiltinToolType) => tools.some(t => t.type === type)
  const toggle = (type: BuiltinToolType, on: boolean) => onChange(on ? [...tools, newTool(type)] : tools.filter(t => t.type !== type))
  return (
    <div className="grid gap-2" role="group" aria-label="Built-in actions">
      {BUILTIN_TOOL_TYPES.map(type => {
        const id = `agent-builtin-${type}`
        return (
          <div key={type} className="flex items-start gap-3">
            <Checkbox id={id} checked={has(type)} onCheckedChange={v => toggle(type, v === true)} aria-describedby={`${id}-hint`} />
            <div className="grid gap-0.5">
              <Label htmlFor={id} className="cursor-pointer">{BUILTINS[type].label}</Label>
              <p id={`${id}-hint`} className="text-xs text-muted-foreground">{BUILTINS[type].hint}</p>
            </div>
          </div>
        )
      })}
    </div>
  )
}

/** The tools the editor shows one by one (HTTP APIs and MCP servers), with their index in the whole list. */
export const configurableTools = (tools: ToolFormValue[]) => tools.map((tool, index) => ({ tool, index })).filter(({ tool }) => !isBuiltin(tool.type))
