// The people module's public face: persons, memberships and invitations, sign-in and sessions, for the CLI and the application.
export * from './people.service'
export * from './sign-in'
export * from './invitations.service'
export { findActiveMembership, findPersonById, type MemberView, type PersonRow, type SessionRow } from './people.repo'
export { MIN_PASSWORD_LENGTH } from './passwords'
