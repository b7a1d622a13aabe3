// What a page knows about its visitor: the signed-in person and session, and, on a Business's pages, that Business
// and the person's Role in it.
import type { Deps } from '../../deps'
import type { Role } from '../../platform/actor'
import type { BusinessRow } from '../../modules/business'
import type { PersonRow, SessionRow } from '../../modules/people'
import type { FieldErrors } from '../../shared/errors'
import type { Actor } from '../../platform/actor'

/** A Business the person may switch to. */
export interface BusinessChoice {
  publicId: string
  name: string
  role: Role
}

export interface Signed {
  deps: Deps
  req: Request
  url: URL
  person: PersonRow
  session: SessionRow
  /** The token every changing form of this session carries. */
  csrf: string
  businesses: BusinessChoice[]
  /** How many invitations wait for the person to accept or decline (pending memberships open nothing). */
  invitations: number
  /** A message named by `?done=` after a change (from a fixed table, never echoed from the URL). */
  notice: string | null
  /** Cookies the answer sets (a new session after a password change). */
  cookies: string[]
}

export interface InBusiness extends Signed {
  business: BusinessRow
  role: Role
  /** `/app/b/<business public id>`: every page of this Business lives under it. */
  base: string
  /** The path's named segments (`:id` and so on). */
  params: Record<string, string>
  /** The person as the operations know them: pages run operations with this Actor, exactly as the API does with a key's. */
  actor: Actor
  /** Runs an operation of the table by name for this person (AppKit.operation): how a page reads and changes. */
  operation<T = any>(
    name: string,
    input?: {
      path?: Record<string, string | number | undefined>
      query?: Record<string, string | undefined>
      body?: Record<string, unknown>
    },
  ): Promise<T>
}

/** A signed-in person acting in a Business: an Owner acts with the admin Role and the owner flag. */
export function personActor(person: PersonRow, business: BusinessRow, role: Role): Actor {
  return {
    businessId: business.id,
    businessPublicId: business.publicId,
    currency: business.currency,
    plan: business.plan,
    isTest: business.isTest,
    role: role === 'owner' ? 'admin' : role,
    owner: role === 'owner',
    kind: 'person',
    credentialId: person.id,
    name: person.name,
  }
}

/** What a refused form shows again: what was typed, the errors per field, the refusal in plain words. */
export interface FormState {
  values: URLSearchParams | null
  errors: FieldErrors
  message: string | null
  code: string | null
}

export const EMPTY_FORM: FormState = { values: null, errors: {}, message: null, code: null }
