import type { z } from 'zod'
import type { ToolCallRecord } from '@/lib/domain/agent-tools'

// What every kind of agent tool is (issue 25): a module with the body that configures it, how it is stored, how the
// API shows it, and the tools it offers the model for one answer. The kinds are listed in ./index.ts; a built-in
// action (request_human, mark_as_resolved, lead_capture) is one more kind whose `offer` acts on the conversation.

/** What a tool may need of the query it serves. */
export interface ToolContext {
  organizationId: string
  agentId: string
  conversationId: string
  /** Aborted when the answer is stopped (client gone, model silent). */
  signal: AbortSignal
  /** Registers a clean-up for the end of the answer (an MCP session to close). */
  defer: (cleanup: () => Promise<void>) => void
}

/** A function offered to the model: its name, what it is for, its arguments' JSON Schema, and the call. */
export interface OfferedTool {
  kind: ToolCallRecord['kind']
  name: string
  description: string
  inputSchema: Record<string, unknown>
  /** Each call waits for an operator's decision (an HTTP tool's `requiresApproval`): recorded, not made, until approved. */
  requiresApproval?: boolean
  /** The text the model is given; throws when the call fails (the model is told the error). */
  call: (args: Record<string, unknown>, signal: AbortSignal) => Promise<string>
}

export interface ToolKind<T extends string, Body, Stored extends { type: T; name: string }, Resource> {
  type: T
  body: z.ZodType<Body>
  /** The stored form of a body; `previous` is the stored tool of the same name, whose secrets a PATCH may keep. */
  store: (body: Body, previous: Stored | undefined) => Stored
  /** What saving adds that needs the network (an MCP server's tools, listed and cached): run on create and PATCH. */
  prepare?: (stored: Stored, context: { organizationId: string }) => Promise<Stored>
  /** How the API shows it (secrets masked). */
  resource: (stored: Stored) => Resource
  /** The functions it offers the model for one answer (none when it cannot be reached: the answer goes on). */
  offer: (stored: Stored, context: ToolContext) => Promise<OfferedTool[]>
}

/** A tool's name, as the model calls it: a letter, then letters, digits, "_" or "-"; "__" is kept for MCP tools. */
export const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,47}$/
export const toolNameRule = { pattern: TOOL_NAME, message: 'a letter, then up to 47 letters, digits, "_" or "-"' }
