'use client'

import * as React from 'react'
import Link from 'next/link'
import { useRouter } from 'next/navigation'
import { useQueryClient } from '@tanstack/react-query'
import { Bot, MessageSquarePlus, MessagesSquare, SlidersHorizontal } from 'lucide-react'
import { NewAgentButton } from '@/components/agents/agents-table'
import { ModelName } from '@/components/agents/model-id-hint'
import { type Agent } from '@/components/agents/types'
import { useAgents } from '@/components/agents/use-agents'
import { countOf } from '@/components/format'
import { EmptyState } from '@/components/layout/empty-state'
import { LoadError, loadFailed, useErrorToast } from '@/components/layout/query-states'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Label } from '@/components/ui/label'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { Skeleton } from '@/components/ui/skeleton'
import { ChatComposer } from './chat-composer'
import { ChatMessages } from './chat-messages'
import { fetchConversation } from './chat-api'
import { conversationLabel, PastConversations, playgroundConversationsKey } from './past-conversations'
import { toChatMessage } from './public-chat-session'
import { Overrides } from './playground-overrides'
import { useAgentChat, type ChatOverrides } from './use-agent-chat'

/** The conversation's name (a link to it in the agent's conversations), the settings toggle and "New conversation". */
function ConversationBar({ agent, conversationId, firstQuestion, canReset, onReset, onToggleSettings, showSettings }: {
  agent: Agent
  conversationId: string | null | undefined
  firstQuestion: string | undefined
  canReset: boolean
  onReset: () => void
  onToggleSettings: () => void
  showSettings: boolean
}) {
  return (
    <div className="flex items-center justify-between gap-2 border-b bg-background px-3 py-2">
      <p className="min-w-0 truncate text-sm text-muted-foreground" data-testid="conversation-state">
        {conversationId ? (
          <>
            <Link
              href={`/agents/${agent.id}/conversations?c=${conversationId}`}
              className="underline-offset-4 hover:underline"
              title="Open it in the agent's conversations"
            >
              {conversationLabel(firstQuestion)}
            </Link>
          </>
        ) : (
          'New conversation'
        )}
      </p>
      <div className="flex shrink-0 gap-1">
        <Button variant="ghost" size="sm" className="lg:hidden" onClick={onToggleSettings} aria-expanded={showSettings}>
          <SlidersHorizontal aria-hidden />
          <span className="sr-only sm:not-sr-only">Settings</span>
        </Button>
        <Button variant="outline" size="sm" onClick={onReset} disabled={!canReset}>
          <MessageSquarePlus aria-hidden />
          New conversation
        </Button>
      </div>
    </div>
  )
}

function EmptyChat({ name }: { name: string }) {
  return (
    <div className="flex h-full flex-col items-center justify-center gap-2 p-6 text-center">
      <span className="flex size-10 items-center justify-center rounded-full bg-muted">
        <Bot className="size-5 text-muted-foreground" aria-hidden />
      </span>
      <p className="font-medium">Ask {name} something</p>
      <p className="max-w-sm text-sm text-muted-foreground">
        The answer streams in as it is written, with the sources it was drawn from. Follow-up questions continue the
        conversation.
      </p>
    </div>
  )
}

function ChatWithAgent({ agent }: { agent: Agent }) {
  const [visitorId, setVisitorId] = React.useState<string | undefined>()
  const [overrides, setOverrides] = React.useState<ChatOverrides>({})
  const [showSettings, setShowSettings] = React.useState(false)
  const queryClient = useQueryClient()
  const chat = useAgentChat({
    agentId: agent.id,
    visitorId,
    onVisitorId: setVisitorId,
    // a new or continued conversation moves to the top of the past ones
    onConversationId: () => void queryClient.invalidateQueries({ queryKey: playgroundConversationsKey(agent.id) }),
  })
  const { restore } = chat
  const open = React.useCallback(
    async (id: string) => {
      const conversation = await fetchConversation(id)
      setVisitorId(undefined)
      restore(conversation.id, conversation.messages.map(toChatMessage))
    },
    [restore],
  )
  const firstQuestion = chat.messages.find(m => m.role === 'user')?.text

  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_18rem]">
      <div className="flex h-[calc(100dvh-15rem)] min-h-[26rem] flex-col overflow-hidden rounded-xl border bg-muted/20 md:h-[calc(100dvh-14rem)]">
        <ConversationBar agent={agent} conversationId={chat.conversationId} firstQuestion={firstQuestion} canReset={chat.messages.length > 0} onReset={chat.reset} onToggleSettings={() => setShowSettings(v => !v)} showSettings={showSettings} />
        {showSettings && (
          <div className="grid gap-6 border-b bg-background p-4 lg:hidden">
            <Overrides agent={agent} value={overrides} onChange={setOverrides} />
            <PastConversations agentId={agent.id} currentId={chat.conversationId} onOpen={id => void open(id)} />
          </div>
        )}
        <ChatMessages
          messages={chat.messages}
          actions={{ conversationId: chat.conversationId, onRetry: chat.retry }}
          empty={<EmptyChat name={agent.name} />}
        />
        <ChatComposer onSend={text => void chat.send(text, overrides)} onStop={chat.stop} busy={chat.busy} placeholder={`Ask ${agent.name}…`} />
      </div>
      {/* a section, not a second <aside>: the sidebar is the page's one complementary landmark */}
      <section aria-labelledby="playground-settings-heading" className="hidden h-fit rounded-xl border p-4 lg:block">
        <h2 id="playground-settings-heading" className="mb-4 text-sm font-semibold">
          Settings
        </h2>
        <Overrides agent={agent} value={overrides} onChange={setOverrides} />
        <div className="mt-6 border-t pt-4">
          <PastConversations agentId={agent.id} currentId={chat.conversationId} onOpen={id => void open(id)} />
        </div>
      </section>
    </div>
  )
}

export function Playground({ initialAgentId }: { initialAgentId?: string }) {
  const agents = useAgents()
  const router = useRouter()
  const [agentId, setAgentId] = React.useState(initialAgentId)
  useErrorToast(agents.error, 'playground-agents-error', 'agents')

  const list = agents.data ?? []
  const agent = list.find(a => a.id === agentId) ?? (agentId ? undefined : list[0])

  if (loadFailed(agents)) return <LoadError query={agents} />
  if (agents.isPending) return <Skeleton className="h-[28rem] w-full rounded-xl" />
  if (list.length === 0) {
    return (
      <EmptyState
        icon={MessagesSquare}
        title="Nothing to chat with yet"
        action={<NewAgentButton />}
      >
        Create an agent first: then choose it here and ask questions. Answers stream in as they are written, with their
        sources.
      </EmptyState>
    )
  }

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <Label htmlFor="playground-agent">Agent</Label>
        <Select
          value={agent?.id ?? ''}
          onValueChange={id => {
            setAgentId(id)
            router.replace(`/playground?agent=${encodeURIComponent(id)}`, { scroll: false })
          }}
        >
          <SelectTrigger id="playground-agent" className="w-full max-w-xs">
            <SelectValue placeholder="Choose an agent" />
          </SelectTrigger>
          <SelectContent>
            {list.map(a => (
              <SelectItem key={a.id} value={a.id}>
                {a.name}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        {agent && (
          <>
            <Badge variant="outline">
              <ModelName modelName={agent.modelName} />
            </Badge>
            <span className="text-sm text-muted-foreground">{countOf(agent.datastoreIds.length, 'datastore')}</span>
          </>
        )}
      </div>
      {agent ? (
        // a new agent starts a new conversation
        <ChatWithAgent key={agent.id} agent={agent} />
      ) : (
        <EmptyState icon={MessagesSquare} title="This agent does not exist">
          It may have been deleted. Choose another agent above.
        </EmptyState>
      )}
    </div>
  )
}
