// People (extensions §8): persons, their memberships in Businesses, one-time sign-in links, application sessions and
// the failed sign-ins that lock an email out.
import { sqliteTable, integer, text, index, primaryKey, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { ROLES } from '../../shared/roles'
import { businessId, id, timestamps } from './columns'

/** A membership added in the application waits for its person to accept it (extensions §8); pending gives no access. */
export const membershipStates = ['active', 'pending'] as const
export type MembershipState = (typeof membershipStates)[number]

export const persons = sqliteTable('persons', {
  id: id(),
  /** As typed; `emailKey` is what is compared (case-blind). */
  email: text('email').notNull(),
  emailKey: text('email_key').notNull().unique(),
  name: text('name').notNull(),
  /** argon2id (Bun.password); null until the person chooses one through a sign-in link. */
  passwordHash: text('password_hash'),
  ...timestamps(),
})

/** The person the row belongs to. */
function personId() {
  return integer('person_id')
    .notNull()
    .references(() => persons.id)
}

/** A person's Role in a Business; a Business always keeps at least one Owner. */
export const memberships = sqliteTable(
  'memberships',
  {
    personId: personId(),
    businessId: businessId(),
    role: text('role', { enum: ROLES }).notNull(),
    /** Memberships from before invitations, and those the operator adds, are active. */
    state: text('state', { enum: membershipStates }).notNull().default('active'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.personId, t.businessId] }), index('memberships_business').on(t.businessId)],
)

/** One-use links (30 minutes) that let a person choose a password; only the token's hash is stored. */
export const signInLinks = sqliteTable(
  'sign_in_links',
  {
    id: id(),
    personId: personId(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: text('expires_at').notNull(),
    usedAt: text('used_at'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('sign_in_links_token').on(t.tokenHash)],
)

/** Application sessions: the cookie holds a random token, the row only its hash. */
export const sessions = sqliteTable(
  'sessions',
  {
    id: id(),
    personId: personId(),
    tokenHash: text('token_hash').notNull(),
    createdAt: text('created_at').notNull(),
    /** Refreshed at most once a minute by requests; 12 hours past it the session is over. */
    lastSeenAt: text('last_seen_at').notNull(),
    endedAt: text('ended_at'),
  },
  (t) => [uniqueIndex('sessions_token').on(t.tokenHash), index('sessions_person').on(t.personId)],
)

/** Failed sign-ins by email (case-blind, known or not), kept in the file so the lockout holds across processes. */
export const signInFailures = sqliteTable(
  'sign_in_failures',
  {
    id: id(),
    emailKey: text('email_key').notNull(),
    at: text('at').notNull(),
  },
  (t) => [index('sign_in_failures_email').on(t.emailKey, t.at)],
)
