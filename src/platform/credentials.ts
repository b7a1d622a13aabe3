// Resolving a presented bearer credential into an Actor, for every door that takes one (API, MCP). Each kind of
// credential is one resolver: API keys now; Connected-app access tokens plug in beside them (their issue follows),
// told apart by their prefix, and may say which resource they were issued for.
import type { Actor } from './actor'

/** Which door asks: an access token issued for `{public_url}/v1` does not open `/mcp` (RFC 8707). */
export type Resource = 'api' | 'mcp'

export interface CredentialResolver {
  /** Whether this resolver reads the presented string (by its prefix); the first that does decides. */
  accepts(credential: string): boolean
  resolve(credential: string, resource: Resource): Promise<Actor | null> | Actor | null
}

export type BearerLookup = (credential: string, resource: Resource) => Promise<Actor | null>

/** One lookup over every kind of credential: none, unknown or ended answers null, and the door answers 401. */
export function bearerLookup(resolvers: CredentialResolver[]): BearerLookup {
  return async (credential, resource) => {
    if (credential.length > 512) return null
    const r = resolvers.find((x) => x.accepts(credential))
    return r ? await r.resolve(credential, resource) : null
  }
}

/** The `Authorization: Bearer <credential>` of a request, or null. */
export function bearerOf(req: Request): string | null {
  const h = req.headers.get('authorization')
  if (!h) return null
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h)
  return m ? m[1]! : null
}
