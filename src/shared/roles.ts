// The one list of Roles a person holds in a Business, and the Roles an API key (or a Connected app) acts with: the
// same list without the Owner, since no person stands behind a key (the contract's key Roles are admin, member, viewer).

/** The Roles of an API key or a Connected app, lowest last: what an Actor acts with. */
export const KEY_ROLES = ['admin', 'member', 'viewer'] as const
/** A person's Roles in a Business: the key Roles and the Owner above them (an Owner acts with an Admin's Role). */
export const ROLES = ['owner', ...KEY_ROLES] as const

export type Role = (typeof ROLES)[number]
export type KeyRole = (typeof KEY_ROLES)[number]
