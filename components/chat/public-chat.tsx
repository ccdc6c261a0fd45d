'use client'

import * as React from 'react'
import { useQuery } from '@tanstack/react-query'
import { Bot, BotOff, MessageSquarePlus, X } from 'lucide-react'
import type { PublicAgent } from '@/components/agents/types'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { prefersDarkText } from '@/lib/agents/appearance'
import type { AgentAppearance } from '@/lib/domain/agents'
import { cn } from '@/lib/utils'
import { fetchPublicAgent } from './chat-api'
import { ChatComposer } from './chat-composer'
import { ChatMessages } from './chat-messages'
import { readVisitorId, saveConversationId, saveVisitorId, useRestoredConversation, useWidgetBridge } from './public-chat-session'
import { LeadForm, SupportActions, usePublicSupport } from './public-support'
import { useAgentChat } from './use-agent-chat'

// The embeddable chat: a public agent, no session. Requests go without cookies (credentials: 'omit'), so the page
// behaves the same for a signed-in admin and for a visitor of the site that embeds it. It wears the agent's theme
// (issue 14), keeps the visitor's conversation across reloads, and, inside the bubble (`embedded`), talks to the
// bubble script (public/widget.js).

/** The theme as CSS variables on the chat's root: the primary colour with a readable text colour on it. */
export function themeStyle(appearance: AgentAppearance): React.CSSProperties {
  const foreground = prefersDarkText(appearance.primaryColor) ? '#0a0a0a' : '#ffffff'
  return { '--primary': appearance.primaryColor, '--primary-foreground': foreground, '--ring': appearance.primaryColor } as React.CSSProperties
}

export function AgentAvatar({ appearance, className }: { appearance: AgentAppearance; className?: string }) {
  if (appearance.avatarUrl) {
    return <img src={appearance.avatarUrl} alt="" className={cn('size-8 shrink-0 rounded-full object-cover', className)} />
  }
  return (
    <span className={cn('flex size-8 shrink-0 items-center justify-center rounded-full bg-primary text-primary-foreground', className)}>
      <Bot className="size-4" aria-hidden />
    </span>
  )
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

function Welcome({ agent, name, onAsk }: { agent: PublicAgent; name: string; onAsk: (q: string) => void }) {
  const { appearance } = agent
  return (
    <div className="flex h-full flex-col items-center justify-center gap-3 p-6 text-center" data-testid="chat-welcome">
      <AgentAvatar appearance={appearance} className="size-12" />
      <p className="max-w-sm font-medium whitespace-pre-wrap">{appearance.welcomeMessage}</p>
      <p className="max-w-xs text-sm text-muted-foreground">{agent.description || `Ask ${name} a question.`}</p>
      {appearance.suggestedQuestions.length > 0 && (
        <ul className="mt-2 flex max-w-sm flex-wrap justify-center gap-2" aria-label="Suggested questions">
          {appearance.suggestedQuestions.map(q => (
            <li key={q}>
              <Button type="button" variant="outline" size="sm" className="h-auto py-1.5 text-left whitespace-normal" onClick={() => onAsk(q)}>
                {q}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

function Chat({ agent, embedded }: { agent: PublicAgent; embedded: boolean }) {
  const { appearance } = agent
  const name = appearance.displayName ?? agent.name
  const bridge = useWidgetBridge(embedded)
  const identity = bridge.identity
  const [visitorId, setVisitorId] = React.useState<string | undefined>(undefined)
  React.useEffect(() => setVisitorId(readVisitorId()), [])
  const onVisitorId = React.useCallback((id: string) => {
    if (identity) return // a verified visitor's id is the site's
    setVisitorId(id)
    saveVisitorId(id)
  }, [identity])
  const onConversationId = React.useCallback((id: string | undefined) => saveConversationId(agent.id, identity, id), [agent.id, identity])
  const chat = useAgentChat({ agentId: agent.id, visitorId: identity?.visitorId ?? visitorId, onVisitorId, credentials: 'omit', identity, onConversationId })
  // the visitor's stored conversation; when the page signs in another visitor, theirs
  const restored = useRestoredConversation(agent.id, identity, chat.restore, bridge.settled)
  const support = usePublicSupport({ agentId: agent.id, conversationId: chat.conversationId, visitorId: identity?.visitorId ?? visitorId, busy: chat.busy, restore: chat.restore })
  // while a person has the conversation, the visitor writes to them: the model is not asked
  const send = (text: string) => void (support.personAnswers ? support.sendToPerson(text) : chat.send(text))

  return (
    <main className={cn('flex h-dvh flex-col bg-background text-foreground', appearance.colorScheme === 'dark' && 'dark')} style={themeStyle(appearance)} data-testid="public-chat" data-color-scheme={appearance.colorScheme}>
      <div className="flex h-full flex-col bg-background text-foreground">
        <header className="flex items-center gap-3 border-b px-4 py-3">
          <AgentAvatar appearance={appearance} />
          <div className="min-w-0 flex-1">
            <h1 className="truncate text-sm font-semibold">{name}</h1>
            {agent.description && <p className="truncate text-xs text-muted-foreground">{agent.description}</p>}
          </div>
          <Button variant="ghost" size="icon" onClick={() => chat.reset()} disabled={chat.messages.length === 0} aria-label="New conversation" title="New conversation">
            <MessageSquarePlus aria-hidden />
          </Button>
          {embedded && (
            <Button variant="ghost" size="icon" onClick={bridge.close} aria-label="Close the chat" title="Close">
              <X aria-hidden />
            </Button>
          )}
        </header>
        <ChatMessages
          messages={chat.messages}
          actions={{ conversationId: chat.conversationId, visitorId: identity?.visitorId ?? visitorId, signature: identity, credentials: 'omit', onRetry: chat.retry }}
          className="bg-muted/20"
          empty={restored ? <Welcome agent={agent} name={name} onAsk={q => void chat.send(q)} /> : <div className="h-full" aria-busy="true" />}
        />
        <LeadForm appearance={appearance} state={support.state} onLeave={support.leaveEmail} />
        <SupportActions appearance={appearance} state={support.state} onStatus={support.setStatus} onResolved={chat.reset} />
        <ChatComposer onSend={send} onStop={chat.stop} busy={chat.busy} disabled={!bridge.settled} />
      </div>
    </main>
  )
}

export function PublicChat({ agentId, embedded = false }: { agentId: string; embedded?: boolean }) {
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
  return <Chat agent={agent.data} embedded={embedded} />
}
