// The signal a model call runs under: aborted when the client goes away, or when the model stays silent for
// AGENT_MODEL_TIMEOUT_SECONDS: before the first piece of the answer, or between two pieces.

export type StopCause = 'client' | 'timeout'

export interface ModelDeadline {
  signal: AbortSignal
  /** Why the call was stopped, if it was. */
  readonly cause: StopCause | null
  /** Progress: the silence timer starts again. */
  touch(): void
  stop(cause: StopCause): void
  /** The run is over: the timer and the client's listener go, and the signal aborts. */
  dispose(): void
}

export function startModelDeadline(clientSignal: AbortSignal | undefined, silenceMs: number): ModelDeadline {
  const controller = new AbortController()
  let cause: StopCause | null = null
  let timer: ReturnType<typeof setTimeout> | undefined
  const stop = (why: StopCause) => {
    clearTimeout(timer)
    if (controller.signal.aborted) return
    cause = why
    controller.abort(new Error(why === 'timeout' ? 'The model timed out' : 'The client went away'))
  }
  const arm = () => {
    if (controller.signal.aborted) return
    // a piece of the answer restarts the same timer (refresh: no new timer object for each of an answer's pieces)
    if (timer) timer.refresh()
    else timer = setTimeout(() => stop('timeout'), silenceMs)
  }
  const onClientAbort = () => stop('client')
  clientSignal?.addEventListener('abort', onClientAbort, { once: true })
  if (clientSignal?.aborted) stop('client')
  arm()
  return {
    signal: controller.signal,
    get cause() {
      return cause
    },
    touch: arm,
    stop,
    dispose() {
      clearTimeout(timer)
      clientSignal?.removeEventListener('abort', onClientAbort)
      if (!controller.signal.aborted) controller.abort(new Error('The model run is over'))
    },
  }
}
