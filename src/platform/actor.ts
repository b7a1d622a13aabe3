// The Actor: who a request acts as, once a door has resolved its credential (API key, Connected-app token, session).
// Services, policy and jobs take an Actor and never a door's own credential or request.

import type { KeyRole } from '../shared/roles'

/** What an Actor may do: read (viewer), change records (member), manage settings (admin). An Owner acts as admin. */
export { ROLES, KEY_ROLES, type Role, type KeyRole } from '../shared/roles'
export type Plan = 'free' | 'pro' | 'pro_plus' | 'paused'

/** Which kind of credential stands behind the Actor: the request log and `recorded_by` name it. */
export type CredentialKind = 'api_key' | 'connected_app' | 'person'

export interface Actor {
  businessId: number
  businessPublicId: string
  /** The Business's reporting currency, the default of new Clients. */
  currency: string
  plan: Plan
  isTest: boolean
  /** The Role it acts with: never `owner` (an Owner acts as admin, with `owner` true). */
  role: KeyRole
  /**
   * True when the person behind the credential is an Owner of the Business (a person signed in as Owner, or a
   * Connected app the Owner connected): the plan rules of the MCP server and the application open more to an Owner.
   */
  owner: boolean
  kind: CredentialKind
  /** The credential's id within its kind (API key id, Connected app id, person id): rate count and idempotency scope. */
  credentialId: number
  /** The credential's name as the request log and `recorded_by` show it (the key's name, the app's, the person's). */
  name: string
}

/** One key per credential, shared by every door it uses: the rate count is one count across the API and MCP. */
export function credentialKey(a: Pick<Actor, 'kind' | 'credentialId'>): string {
  return `${a.kind}:${a.credentialId}`
}

/**
 * What `recorded_by`, `amended_by` and `voided_by` say of the Actor: `{type, name}` for an API key or a Connected app;
 * null for a person in the application (extensions §9: a Payment recorded there has `recorded_by: null`).
 */
export function actorRecord(
  a: Pick<Actor, 'kind' | 'name'>,
): { type: 'api_key' | 'connected_app'; name: string } | null {
  return a.kind === 'person' ? null : { type: a.kind, name: a.name }
}

/** The Actor a background job acts as for a Business (a webhook body is built as its Admin would read it). */
export function systemActor(
  b: { businessId: number; businessPublicId?: string; currency?: string; plan?: Plan; isTest?: boolean },
  name = 'system',
): Actor {
  return {
    businessId: b.businessId,
    businessPublicId: b.businessPublicId ?? '',
    currency: b.currency ?? '',
    plan: b.plan ?? 'pro',
    isTest: b.isTest ?? false,
    role: 'admin',
    owner: false,
    kind: 'api_key',
    credentialId: 0,
    name,
  }
}
