'use client'

import { Checkbox } from '@/components/ui/checkbox'
import { Label } from '@/components/ui/label'
import { SCOPES, type Scope } from '@/lib/domain/access'

/** What each scope allows, as a member would say it. */
const SCOPE_LABELS: Record<Scope, string> = {
  'datastores:read': 'Read and search datastores',
  'datastores:write': 'Add, change and delete content',
  'agents:read': 'Read agents',
  'agents:write': 'Create, change and delete agents',
  'agents:query': 'Ask agents',
  'conversations:read': 'Read conversations',
  'conversations:write': 'Work conversations (votes, replies, gaps)',
  admin: 'Keys, webhooks and the audit log',
}

/** The scopes a new key gets; none ticked: full access, as keys made before scopes. */
export function KeyScopesFields({ scopes, onChange }: { scopes: Scope[]; onChange: (scopes: Scope[]) => void }) {
  const toggle = (scope: Scope, on: boolean) => onChange(on ? [...scopes, scope] : scopes.filter(s => s !== scope))
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">What it may do</legend>
      <p className="text-xs text-muted-foreground">None ticked: everything. A request outside its scopes is refused (403).</p>
      {SCOPES.map(scope => (
        <div key={scope} className="flex items-center gap-2">
          <Checkbox id={`scope-${scope}`} checked={scopes.includes(scope)} onCheckedChange={on => toggle(scope, on === true)} />
          <Label htmlFor={`scope-${scope}`} className="font-normal">
            {SCOPE_LABELS[scope]} <code className="text-xs text-muted-foreground">{scope}</code>
          </Label>
        </div>
      ))}
    </fieldset>
  )
}
