import { JSONRPCMessageSchema, JSONRPCResponseSchema } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'

// What POST /api/mcp takes and answers: JSON-RPC 2.0 messages of the Model Context Protocol, as the official SDK's
// own schemas define them (one message, or a batch). A body that is not one is the API's ordinary 400.

export const McpRequestBody = z.union([JSONRPCMessageSchema, z.array(JSONRPCMessageSchema).min(1).max(100)]).meta({ id: 'McpMessage' })

export const McpResponse = z.union([JSONRPCResponseSchema, z.array(JSONRPCResponseSchema)]).meta({ id: 'McpResponse' })

export const MCP_PROTOCOL_DESCRIPTION = [
  'The Model Context Protocol over Streamable HTTP (https://modelcontextprotocol.io), stateless: no session id, every',
  'POST answered with its JSON-RPC response (a notification alone: 202 without a body); GET and DELETE are 405.',
  'Tools: list_datastores, search_datastore, list_agents, ask_agent (their input schemas come from the REST endpoints',
  'they stand for). A tool that fails answers a result with `isError: true`, never an HTTP error.',
].join('\n')
