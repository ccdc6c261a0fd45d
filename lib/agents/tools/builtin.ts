import type { BuiltinToolResource } from '@/lib/domain/agent-tools'
import type { OfferedTool, ToolContext, ToolKind } from './kind'
import type { BuiltinToolBody, BuiltinToolType } from './schemas'
import { LeadCaptureToolBody, MarkAsResolvedToolBody, RequestHumanToolBody } from './schemas'

// What the built-in actions (request_human, mark_as_resolved, lead_capture: issues 23 and 25) have in common: no
// settings and no secrets; stored as their type, offered to the model under that name, acting on the conversation
// of the answer through lib/support, as the agent (AGENT_ACTOR).

export interface StoredBuiltinTool<T extends BuiltinToolType = BuiltinToolType> {
  type: T
  name: T
}

interface BuiltinAction {
  description: string
  inputSchema: Record<string, unknown>
  /** What the tool does for this answer's conversation; the text the model reads. Throws a message for the model. */
  run: (args: Record<string, unknown>, context: ToolContext) => Promise<string>
}

const BODIES = { request_human: RequestHumanToolBody, mark_as_resolved: MarkAsResolvedToolBody, lead_capture: LeadCaptureToolBody }

export function builtinKind<T extends BuiltinToolType>(type: T, action: BuiltinAction): ToolKind<T, BuiltinToolBody, StoredBuiltinTool<T>, BuiltinToolResource> {
  return {
    type,
    body: BODIES[type] as never,
    store: () => ({ type, name: type }),
    resource: () => ({ type }) as BuiltinToolResource,
    offer: async (_stored, context) => [
      {
        kind: 'builtin',
        name: type,
        description: action.description,
        inputSchema: action.inputSchema,
        call: args => action.run(args, context),
      } satisfies OfferedTool,
    ],
  }
}

export const NO_ARGUMENTS = { type: 'object', properties: {}, additionalProperties: false }
