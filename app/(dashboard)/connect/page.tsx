import type { Metadata } from 'next'
import { ConnectAssistantView } from '@/components/mcp/connect-assistant-view'

export const metadata: Metadata = { title: 'Connect an AI assistant' }

export default function ConnectPage() {
  return <ConnectAssistantView />
}
