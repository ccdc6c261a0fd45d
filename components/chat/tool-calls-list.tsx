'use client'

import { CircleAlert, Wrench } from 'lucide-react'
import type { ToolCallRecord } from '@/lib/domain/agent-tools'

// What the agent's tools were asked and answered for one answer (issue 25): shown to the agent's organization in
// the playground and the inbox (a public agent's visitors never get them).

const brief = (value: unknown) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return text.length > 400 ? `${text.slice(0, 400)}…` : text
}

export function ToolCallsList({ calls }: { calls: ToolCallRecord[] }) {
  if (calls.length === 0) return null
  return (
    <div className="mt-3 border-t pt-2" data-testid="answer-tool-calls">
      <p className="mb-1.5 text-xs font-medium text-muted-foreground">Tools called</p>
      <ul className="grid gap-1.5">
        {calls.map(call => (
          <li key={call.id} className="text-xs" data-testid="answer-tool-call">
            <details>
              <summary className="flex cursor-pointer items-center gap-1.5">
                {call.ok ? <Wrench className="size-3 shrink-0" aria-hidden /> : <CircleAlert className="size-3 shrink-0 text-destructive" aria-hidden />}
                <code className="font-mono">{call.tool}</code>
                <span className="text-muted-foreground">
                  {call.ok ? 'answered' : 'failed'} in {call.durationMs} ms
                </span>
              </summary>
              <dl className="mt-1 grid gap-1 pl-4 text-muted-foreground">
                <dt className="font-medium">Arguments</dt>
                <dd className="font-mono break-all">{brief(call.arguments)}</dd>
                <dt className="font-medium">{call.ok ? 'Result' : 'Error'}</dt>
                <dd className="font-mono break-all whitespace-pre-wrap">{brief(call.ok ? call.result : call.error)}</dd>
              </dl>
            </details>
          </li>
        ))}
      </ul>
    </div>
  )
}
