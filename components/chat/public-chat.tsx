'use client'

import * as React from 'react'
import { useQuery } from '@tanstack/react-query'
import { Bot, BotOff, MessageSquarePlus } from 'lucide-react'
import type { PublicAgent } from '@/components/agents/types'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { fetchPublicAgent } from './chat-api'
import { ChatComposer } from './chat-composer'
import { ChatMessages } from './chat-messages'
import { useAgentChat } from './use-agent-chat'

// The embeddable chat: a public agent, no session. Requests go without cookies (credentials: 'omit'), so the page
// behaves the same for a signed-in admin and for a visitor of the site that embeds it.

const VISITOR_KEY = 'ads-chat-visitor-id'

function readVisitorId(): string | undefined {
  try {
    return localStorage.getItem(VISITOR_KEY) ?? undefined
  } catch {
    return undefined // storage blocked (e.g. a third-party iframe with strict settings)
  }
}

function saveVisitorId(id: string) {
  try {
    localStorage.setItem(VISITOR_KEY, id)
  } catch {}
}

function Unavailable() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-3 px-6 text-center" data-testid="chat-unavailable">
      <span className="flex size-12 items-center justify-center rounded-full bg-muted">
        <BotOff className="size-6 text-muted-foreground" aria-hidden />
      </span>
      <h1 className="text-lg font-semibold">This agent is not available</h1>
      <p className="max-w-xs text-sm text-muted-foreground">It may be private, or it no longer exists.</p>
    </main>
  )
}

function Chat({ agent }: { agent: PublicAgent }) {
  const [visitorId, setVisitorId] = React.useState<string | undefined>(undefined)
  React.useEffect(() => setVisitorId(readVisitorId()), [])
  const onVisitorId = React.useCallback((id: string) => {
    setVisitorId(id)
    saveVisitorId(id)
  }, [])
  const chat = useAgentChat({ agentId: agent.id, visitorId, onVisitorId, credentials: 'omit' })

  return (
    <main className="flex h-dvh flex-col bg-background">
      <header className="flex items-center gap-3 border-b px-4 py-3">
        <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary text-primary-foreground">
          <Bot className="size-4" aria-hidden />
        </span>
        <div className="min-w-0 flex-1">
          <h1 className="truncate text-sm font-semibold">{agent.name}</h1>
          {agent.description && <p className="truncate text-xs text-muted-foreground">{agent.description}</p>}
        </div>
        <Button variant="ghost" size="icon" onClick={chat.reset} disabled={chat.messages.length === 0} aria-label="New conversation" title="New conversation">
          <MessageSquarePlus aria-hidden />
        </Button>
      </header>
      <ChatMessages
        messages={chat.messages}
        className="bg-muted/20"
        empty={
          <div className="flex h-full flex-col items-center justify-center gap-2 p-6 text-center">
            <p className="font-medium">Hi! How can I help?</p>
            <p className="max-w-xs text-sm text-muted-foreground">{agent.description || `Ask ${agent.name} a question.`}</p>
          </div>
        }
      />
      <ChatComposer onSend={text => void chat.send(text)} onStop={chat.stop} busy={chat.busy} />
    </main>
  )
}

export function PublicChat({ agentId }: { agentId: string }) {
  const agent = useQuery({ queryKey: ['public-agent', agentId], queryFn: () => fetchPublicAgent(agentId), staleTime: 60_000 })
  if (agent.isPending) {
    return (
      <main className="flex h-dvh flex-col">
        <div className="flex items-center gap-3 border-b px-4 py-3">
          <Skeleton className="size-8 rounded-full" />
          <Skeleton className="h-4 w-40" />
        </div>
        <div className="flex-1" />
      </main>
    )
  }
  if (agent.isError) {
    return (
      <main className="flex min-h-dvh flex-col items-center justify-center gap-3 px-6 text-center">
        <h1 className="text-lg font-semibold">The chat could not load</h1>
        <p className="text-sm text-muted-foreground">Check your connection, then try again.</p>
        <Button variant="outline" onClick={() => void agent.refetch()}>
          Try again
        </Button>
      </main>
    )
  }
  if (!agent.data) return <Unavailable />
  return <Chat agent={agent.data} />
}
