import { STOPPED_MESSAGE, type AgentAnswer, type AnswerEncoding, type AnswerEvent } from '@/lib/domain/answer-events'
import { ModelError, ModelFailed, ModelTimeout } from '@/lib/domain/errors'
import { limitPublicQuery } from '@/lib/rate-limit/public-queries'
import { admitQuestion, releasingAtEnd } from './admission'
import { openSpan } from '@/lib/tracing/spans'
import type { AgentAccess } from './agent-access'
import type { AgentQuery } from './agent-schemas'
import { answerIfPersonHas, handoffEvents } from './handoff'
import { VISITOR_APOLOGY } from './model-failure'
import { collectAnswer, runModel } from './model-run'
import { prepareQuery } from './prepare-query'
import { sourcesVisibilityFor } from './appearance'
import { checkQueryVisitor, checkVerifiedConversation, markVerifiedConversation } from './visitor-signature'
import { readNamedConversation } from './conversations'

// The query pipeline of spec §4.2 (DESIGN.md §7): the public rate limit, the preparation (which may refuse the
// query), then the model run, whose events are the stream or, collected, the JSON answer. The edge frames them.

export type AgentReply =
  | { kind: 'stream'; events: AsyncIterable<AnswerEvent>; encoding: AnswerEncoding }
  | { kind: 'json'; answer: AgentAnswer }

export interface QueryCaller {
  /** Aborted when the client goes away: the model call stops. */
  signal?: AbortSignal
  /** The caller's network address, for the rate limit of public agents. */
  clientAddress: string
  /** The stream encoding asked for outside the body (a query parameter), which wins over the body's. */
  streamEncoding?: AnswerEncoding
}

/**
 * The encoding of a streamed answer (DESIGN.md §7): the one asked for, else Chaindesk's for Chaindesk's own clients
 * (they send `channel`, and decode every payload), else the spec's plain text.
 */
export function streamEncodingOf(body: Pick<AgentQuery, 'channel' | 'streamEncoding'>, asked?: AnswerEncoding): AnswerEncoding {
  return asked ?? body.streamEncoding ?? (body.channel ? 'chaindesk' : 'sse')
}

/** The query, traced (issue 27): one `agent.query` span, ended with the JSON answer or with the stream's last event. */
export async function queryAgent(access: AgentAccess, body: AgentQuery, caller: QueryCaller): Promise<AgentReply> {
  const span = openSpan('agent.query', { 'agent.streaming': Boolean(body.streaming), 'agent.channel': body.channel })
  try {
    const reply = await span.run(() => answerQuery(access, body, caller))
    if (reply.kind === 'stream') return { ...reply, events: span.iterate(reply.events) }
    span.end()
    return reply
  } catch (error) {
    span.end(error)
    throw error
  }
}

async function answerQuery(access: AgentAccess, body: AgentQuery, caller: QueryCaller): Promise<AgentReply> {
  if (!access.member) limitPublicQuery(caller.clientAddress, body.visitorId)
  // issue 28: a place among the questions in progress, held until the answer ends (a stream: until it ends or its
  // reader goes away)
  const release = admitQuestion()
  try {
    const reply = await answer(access, body, caller)
    if (reply.kind === 'json') release()
    return reply.kind === 'json' ? reply : { ...reply, events: releasingAtEnd(reply.events, release) }
  } catch (error) {
    release()
    throw error
  }
}

async function answer(access: AgentAccess, body: AgentQuery, caller: QueryCaller): Promise<AgentReply> {
  // issue 14: a signed visitor is checked and runs under its verified record; a visitor sees the sources the agent
  // shows (the stored answer keeps them all)
  const visitor = checkQueryVisitor(access, body)
  const asked = visitor.verified ? { ...body, visitorId: visitor.visitorId } : body
  // the conversation and the visitor, read once for every check below
  const named = await readNamedConversation({ organizationId: access.organizationId, agentId: access.agent.id }, asked.conversationId, asked.visitorId)
  checkVerifiedConversation(named, visitor)
  // issue 23: while a person has the conversation the model is not called
  const handedOver = await answerIfPersonHas(access, asked, named)
  if (handedOver) {
    if (body.streaming) return { kind: 'stream', events: handoffEvents(handedOver), encoding: streamEncodingOf(body, caller.streamEncoding) }
    return { kind: 'json', answer: handedOver }
  }
  const prepared = {
    ...(await prepareQuery(access, asked, named, caller.signal)),
    sourcesVisibility: sourcesVisibilityFor(access.member, access.agent.appearance),
    showToolCalls: access.member,
  }
  await markVerifiedConversation(prepared.conversationId, visitor)
  // a visitor reads a plain apology when the model fails, and the answer, not what its tools were asked; the
  // organization reads the cause and the tool calls (issues 22, 25)
  const told = (events: AsyncIterable<AnswerEvent>) => (access.member ? events : toVisitor(events))
  const run = (delivered: 'as-it-comes' | 'at-the-end') =>
    openSpan('agent.model_call', { 'gen_ai.request.model': prepared.model.id, 'agent.tools': prepared.tools.length }).iterate(runModel(prepared, caller.signal, delivered))
  if (body.streaming) {
    return { kind: 'stream', events: told(run('as-it-comes')), encoding: streamEncodingOf(body, caller.streamEncoding) }
  }
  return { kind: 'json', answer: await collectAnswer(told(run('at-the-end'))) }
}

/**
 * The run's events as a visitor reads them: the answer, not what the agent's tools were asked and answered, and a
 * failure's message replaced by the apology (its kind, hence the HTTP status, kept). One pass: each piece of a
 * streamed answer goes through every layer of generators between the model and the socket.
 */
async function* toVisitor(events: AsyncIterable<AnswerEvent>): AsyncGenerator<AnswerEvent, void, undefined> {
  for await (const event of events) {
    if (event.type === 'tool_call' || event.type === 'tool_result') continue
    if (event.type !== 'error' || event.message === STOPPED_MESSAGE) {
      yield event
      continue
    }
    const cause = event.cause instanceof ModelError ? event.cause : undefined
    yield { type: 'error', message: VISITOR_APOLOGY, cause: cause?.kind === 'timeout' ? new ModelTimeout(VISITOR_APOLOGY, cause.failure) : new ModelFailed(VISITOR_APOLOGY, cause?.failure) }
  }
}
