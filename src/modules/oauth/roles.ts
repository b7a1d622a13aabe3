// The Role a Connected app acts with: the one granted at consent, lowered to the connecting person's own Role should
// that fall (an Owner counts as admin). A scope asked for at authorization is a ceiling the same way.
import { KEY_ROLES, type KeyRole, type Role } from '../../platform/actor'

/** A Connected app's Role: one of the API-key Roles (never owner). */
export type GrantRole = KeyRole
/** A person's Role, the Owner included. */
export type PersonRole = Role

const RANK: Record<GrantRole, number> = { viewer: 0, member: 1, admin: 2 }

export function asGrant(role: PersonRole): GrantRole {
  return role === 'owner' ? 'admin' : role
}

/** The lower of a granted Role and a person's Role. */
export function lowerTo(granted: GrantRole, person: PersonRole): GrantRole {
  const p = asGrant(person)
  return RANK[p] < RANK[granted] ? p : granted
}

/** The lowest of several Roles: one message for several connecting people answers as the least of them may. */
export function lowestRole(roles: GrantRole[]): GrantRole {
  return roles.reduce((low, r) => (RANK[r] < RANK[low] ? r : low))
}

/** The Roles a person may grant: their own and every lower one. */
export function grantable(person: PersonRole): GrantRole[] {
  const p = asGrant(person)
  return KEY_ROLES.filter((r) => RANK[r] <= RANK[p])
}

export function isGrantRole(v: string): v is GrantRole {
  return (KEY_ROLES as readonly string[]).includes(v)
}
