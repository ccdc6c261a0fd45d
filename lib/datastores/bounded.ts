/** Runs fn over items with at most `limit` calls in flight; rejects with the first error once all have settled. */
export async function forEachBounded<T>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0
  let failure: { error: unknown } | null = null
  const lane = async () => {
    while (next < items.length) {
      const index = next++
      try {
        await fn(items[index], index)
      } catch (error) {
        failure ??= { error }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane))
  if (failure) throw (failure as { error: unknown }).error
}
