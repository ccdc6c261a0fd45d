// The sync worker lands with the datastores issue; the web process already knows where to start it.
export function startWorker(_options: { concurrency: number }): { stop(): Promise<void> } {
  return { stop: async () => {} }
}
