export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { startServer } = await import('./lib/server-start')
    await startServer()
    // scripts/serve.mjs (what `npm start` runs) answers the API's own routes without Next's router and asks for the
    // dispatcher here, where the route files can be imported (lib/api/direct-dispatch.ts); `next dev` does not ask
    const serve = globalThis as { __directApiWanted?: boolean; __directApi?: unknown }
    if (serve.__directApiWanted) {
      const [{ ROUTE_MODULES }, { directDispatcher }] = await Promise.all([import('./app/api/registry'), import('./lib/api/direct-dispatch')])
      serve.__directApi = directDispatcher(ROUTE_MODULES)
    }
  }
}
