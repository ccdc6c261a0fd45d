'use client'

import { ModelItems } from '@/components/agents/agent-form-fields'
import { modelLabel, QUERY_MODEL_NAMES, type Agent } from '@/components/agents/types'
import { FormField } from '@/components/layout/form-field'
import { Label } from '@/components/ui/label'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { Slider } from '@/components/ui/slider'
import { Switch } from '@/components/ui/switch'
import { cn } from '@/lib/utils'
import { type ChatOverrides } from './use-agent-chat'

const AGENT_DEFAULT = 'agent-default'

export function Overrides({
  agent,
  value,
  onChange,
}: {
  agent: Agent
  value: ChatOverrides
  onChange: (v: ChatOverrides) => void
}) {
  const overridingTemperature = value.temperature !== undefined
  return (
    <div className="grid gap-5" role="group" aria-label="Overrides for this conversation">
      <FormField id="override-model" label="Model">
        <Select
          value={value.modelName ?? AGENT_DEFAULT}
          onValueChange={v => onChange({ ...value, modelName: v === AGENT_DEFAULT ? undefined : v })}
        >
          <SelectTrigger id="override-model" className="w-full">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={AGENT_DEFAULT}>Agent’s model ({modelLabel(agent.modelName)})</SelectItem>
            <ModelItems names={QUERY_MODEL_NAMES} />
          </SelectContent>
        </Select>
      </FormField>
      <div className="grid gap-3">
        <div className="flex items-center justify-between gap-2">
          <Label htmlFor="override-temperature-switch">Override temperature</Label>
          <Switch
            id="override-temperature-switch"
            checked={overridingTemperature}
            onCheckedChange={on => onChange({ ...value, temperature: on ? agent.temperature : undefined })}
          />
        </div>
        {/* only the slider fades when off: faded text (1.97:1) is unreadable */}
        <div className="grid gap-2" data-overriding={overridingTemperature}>
          <div className="flex justify-between text-xs text-muted-foreground">
            <span id="override-temperature-label">Temperature</span>
            <span className="font-mono tabular-nums">{(value.temperature ?? agent.temperature).toFixed(2)}</span>
          </div>
          <Slider
            aria-labelledby="override-temperature-label"
            min={0}
            max={1}
            step={0.05}
            disabled={!overridingTemperature}
            className={cn(!overridingTemperature && 'opacity-50')}
            value={[value.temperature ?? agent.temperature]}
            onValueChange={([v]) => onChange({ ...value, temperature: Math.round(v * 100) / 100 })}
          />
        </div>
      </div>
      <p className="text-xs text-muted-foreground">Overrides apply to the next questions only; the agent’s settings do not change.</p>
    </div>
  )
}

