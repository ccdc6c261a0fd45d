// How AI assistants connect to this service's MCP server (README "Connect an AI assistant"): the configuration each
// one reads, for the given endpoint and key. The key stays a placeholder unless the person pastes one in.

export const KEY_PLACEHOLDER = '<your API key>'

export interface AssistantConfig {
  id: string
  name: string
  /** Where the text goes. */
  where: string
  text: string
  language: 'json' | 'shell'
}

const json = (value: unknown) => JSON.stringify(value, null, 2)

export function assistantConfigs(endpoint: string, key = KEY_PLACEHOLDER): AssistantConfig[] {
  return [
    {
      id: 'claude-desktop',
      name: 'Claude Desktop',
      where: 'claude_desktop_config.json (Settings → Developer → Edit config); mcp-remote bridges to a remote server with a header',
      language: 'json',
      text: json({
        mcpServers: {
          'agent-datastore': {
            command: 'npx',
            args: ['-y', 'mcp-remote', endpoint, '--header', 'Authorization:${AUTH_HEADER}'],
            env: { AUTH_HEADER: `Bearer ${key}` },
          },
        },
      }),
    },
    {
      id: 'cursor',
      name: 'Cursor',
      where: '~/.cursor/mcp.json (or .cursor/mcp.json in a project)',
      language: 'json',
      text: json({ mcpServers: { 'agent-datastore': { url: endpoint, headers: { Authorization: `Bearer ${key}` } } } }),
    },
    {
      id: 'claude-code',
      name: 'Claude Code',
      where: 'a terminal',
      language: 'shell',
      text: `claude mcp add --transport http agent-datastore ${endpoint} --header "Authorization: Bearer ${key}"`,
    },
    {
      id: 'inspector',
      name: 'MCP Inspector',
      where: 'a terminal: lists the tools (or run it without --cli for its web UI: transport "Streamable HTTP", the URL, the header)',
      language: 'shell',
      text: `npx @modelcontextprotocol/inspector --cli ${endpoint} --transport http --header "Authorization: Bearer ${key}" --method tools/list`,
    },
  ]
}
