/**
 * Watches the event loop: the longest stretch between two ticks of a 10 ms timer, the stretch up to stop() included
 * (a loop held from start to end never ticks, which a sampling histogram such as monitorEventLoopDelay would report
 * as no delay at all).
 */
export function loopWatch() {
  let last = performance.now()
  let longest = 0
  const timer = setInterval(() => {
    const now = performance.now()
    longest = Math.max(longest, now - last)
    last = now
  }, 10)
  return {
    stop() {
      clearInterval(timer)
      return Math.max(longest, performance.now() - last)
    },
  }
}

/** The longest the event loop was held while `work` ran (see loopWatch). */
export async function longestLoopHold(work: () => Promise<unknown>): Promise<number> {
  const watch = loopWatch()
  try {
    await work()
  } catch (error) {
    watch.stop()
    throw error
  }
  return watch.stop()
}
