import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import Provider from 'oidc-provider'

// A real OpenID Connect provider for the single sign-on spec (the `oidc-provider` package, as an identity provider
// runs it), on 127.0.0.1. Its development login form takes any login and password: the login is the account's id,
// and the account's email (so "ada@allowed.example" signs in as that email, verified).

export interface OidcClient {
  clientId: string
  clientSecret: string
  redirectUri: string
}

export async function startOidcProvider(port: number, client: OidcClient): Promise<{ issuer: string; close: () => Promise<void> }> {
  const issuer = `http://127.0.0.1:${port}`
  const provider = new Provider(issuer, {
    clients: [{ client_id: client.clientId, client_secret: client.clientSecret, redirect_uris: [client.redirectUri], grant_types: ['authorization_code'], response_types: ['code'] }],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // the claims in the ID token itself, which next-auth reads (idToken: true)
    conformIdTokenClaims: false,
    findAccount: async (_ctx, id) => ({
      accountId: id,
      claims: async () => ({ sub: id, email: id, email_verified: true, name: id.split('@')[0] }),
    }),
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['e2e-oidc-cookie-key-0123456789'] },
  })
  const server: Server = await new Promise(resolve => {
    const s = provider.listen(port, '127.0.0.1', () => resolve(s))
  })
  return {
    issuer: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise(resolve => server.close(() => resolve())),
  }
}
