// SQL for persons, memberships, sign-in links, sessions and failed sign-ins.
import { and, asc, count, desc, eq, gt, isNull, lt, type SQL } from 'drizzle-orm'
import type { Queryable, Tx } from '../../db/client'
import {
  businesses,
  memberships,
  persons,
  sessions,
  signInFailures,
  signInLinks,
  type MembershipState,
} from '../../db/schema'
import type { Role } from '../../platform/actor'

export type PersonRow = typeof persons.$inferSelect
export type MembershipRow = typeof memberships.$inferSelect
export type SessionRow = typeof sessions.$inferSelect
export type SignInLinkRow = typeof signInLinks.$inferSelect

// ---- Persons

export async function insertPerson(tx: Tx, values: typeof persons.$inferInsert): Promise<PersonRow> {
  return tx.insert(persons).values(values).returning().get()
}

export async function findPersonByEmailKey(q: Queryable, emailKey: string): Promise<PersonRow | undefined> {
  return q.select().from(persons).where(eq(persons.emailKey, emailKey)).get()
}

export async function findPersonById(q: Queryable, id: number): Promise<PersonRow | undefined> {
  return q.select().from(persons).where(eq(persons.id, id)).get()
}

export async function updatePersonRow(tx: Tx, id: number, set: Partial<PersonRow>): Promise<void> {
  await tx.update(persons).set(set).where(eq(persons.id, id))
}

// ---- Memberships

export interface MemberView {
  personId: number
  email: string
  name: string
  role: Role
  state: MembershipState
  createdAt: string
}

/** A membership gives access only when active (the OAuth module's reads ask the same: `memberOfConnection`). */
export const membershipActive = eq(memberships.state, 'active')

/** The membership of this person in this Business, kept to `state` where given. */
const membershipWhere = (personId: number, businessId: number, state?: SQL) =>
  and(eq(memberships.personId, personId), eq(memberships.businessId, businessId), state)

export async function membersOf(q: Queryable, businessId: number): Promise<MemberView[]> {
  return q
    .select({
      personId: persons.id,
      email: persons.email,
      name: persons.name,
      role: memberships.role,
      state: memberships.state,
      createdAt: memberships.createdAt,
    })
    .from(memberships)
    .innerJoin(persons, eq(persons.id, memberships.personId))
    .where(eq(memberships.businessId, businessId))
    .orderBy(asc(memberships.createdAt), asc(persons.id))
}

export async function findMembership(
  q: Queryable,
  personId: number,
  businessId: number,
): Promise<MembershipRow | undefined> {
  return q.select().from(memberships).where(membershipWhere(personId, businessId)).get()
}

/** The membership that gives access, or undefined (none, or one still pending). */
export async function findActiveMembership(
  q: Queryable,
  personId: number,
  businessId: number,
): Promise<MembershipRow | undefined> {
  return q
    .select()
    .from(memberships)
    .where(membershipWhere(personId, businessId, membershipActive))
    .get()
}

/**
 * Adds a membership or changes its Role. `state` is written on a new row; an existing row keeps its state unless
 * `activate` (the operator's `member add` acts at once, a pending membership included).
 */
export async function upsertMembership(
  tx: Tx,
  values: typeof memberships.$inferInsert,
  activate = false,
): Promise<void> {
  await tx
    .insert(memberships)
    .values(values)
    .onConflictDoUpdate({
      target: [memberships.personId, memberships.businessId],
      set: activate ? { role: values.role, state: 'active' } : { role: values.role },
    })
}

/** A pending membership becomes active; false when there was none pending (accepted meanwhile, or withdrawn). */
export async function activateMembership(tx: Tx, personId: number, businessId: number): Promise<boolean> {
  const r = await tx
    .update(memberships)
    .set({ state: 'active' })
    .where(membershipWhere(personId, businessId, eq(memberships.state, 'pending')))
    .returning({ role: memberships.role })
  return r.length === 1
}

export async function deleteMembership(
  tx: Tx,
  personId: number,
  businessId: number,
  onlyPending = false,
): Promise<boolean> {
  const r = await tx
    .delete(memberships)
    .where(membershipWhere(personId, businessId, onlyPending ? eq(memberships.state, 'pending') : undefined))
    .returning({ role: memberships.role })
  return r.length === 1
}

export async function countOwners(q: Queryable, businessId: number): Promise<number> {
  // A pending Owner is not one yet: the Business must keep an Owner who can act.
  const r = await q
    .select({ n: count() })
    .from(memberships)
    .where(and(eq(memberships.businessId, businessId), eq(memberships.role, 'owner'), membershipActive))
    .get()
  return r?.n ?? 0
}

/**
 * The Businesses of a person (deleted ones left out), by name, each with the membership's state; read through
 * `businessesOfPerson`, which parts the ones the person may open from the invitations.
 */
export async function membershipsWithBusinesses(q: Queryable, personId: number) {
  return q
    .select({
      id: businesses.id,
      publicId: businesses.publicId,
      name: businesses.name,
      role: memberships.role,
      state: memberships.state,
      invitedAt: memberships.createdAt,
      plan: businesses.plan,
      isTest: businesses.isTest,
    })
    .from(memberships)
    .innerJoin(businesses, eq(businesses.id, memberships.businessId))
    .where(and(eq(memberships.personId, personId), isNull(businesses.deletedAt)))
    .orderBy(asc(businesses.name), asc(businesses.id))
}

// ---- Sign-in links

export async function insertSignInLink(tx: Tx, values: typeof signInLinks.$inferInsert): Promise<void> {
  await tx.insert(signInLinks).values(values)
}

export async function findSignInLink(q: Queryable, tokenHash: string): Promise<SignInLinkRow | undefined> {
  return q.select().from(signInLinks).where(eq(signInLinks.tokenHash, tokenHash)).get()
}

/** Marks the link used unless it was used meanwhile; true when this call used it. */
export async function useSignInLink(tx: Tx, id: number, at: string): Promise<boolean> {
  const r = await tx
    .update(signInLinks)
    .set({ usedAt: at })
    .where(and(eq(signInLinks.id, id), isNull(signInLinks.usedAt)))
    .returning({ id: signInLinks.id })
  return r.length === 1
}

// ---- Sessions

export async function insertSession(tx: Tx, values: typeof sessions.$inferInsert): Promise<void> {
  await tx.insert(sessions).values(values)
}

export async function liveSessionByHash(q: Queryable, tokenHash: string): Promise<SessionRow | undefined> {
  return q
    .select()
    .from(sessions)
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.endedAt)))
    .get()
}

export async function touchSession(tx: Tx, id: number, at: string): Promise<void> {
  await tx.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.id, id))
}

export async function endSession(tx: Tx, id: number, at: string): Promise<void> {
  await tx
    .update(sessions)
    .set({ endedAt: at })
    .where(and(eq(sessions.id, id), isNull(sessions.endedAt)))
}

export async function endSessionsOf(tx: Tx, personId: number, at: string): Promise<void> {
  await tx
    .update(sessions)
    .set({ endedAt: at })
    .where(and(eq(sessions.personId, personId), isNull(sessions.endedAt)))
}

// ---- Failed sign-ins

export async function insertFailure(tx: Tx, emailKey: string, at: string): Promise<void> {
  await tx.insert(signInFailures).values({ emailKey, at })
}

/** The failures for an email since `since`, newest first. */
export async function failuresSince(q: Queryable, emailKey: string, since: string): Promise<string[]> {
  const rows = await q
    .select({ at: signInFailures.at })
    .from(signInFailures)
    .where(and(eq(signInFailures.emailKey, emailKey), gt(signInFailures.at, since)))
    .orderBy(desc(signInFailures.at))
    .limit(50)
  return rows.map((r) => r.at)
}

export async function clearFailures(tx: Tx, emailKey: string): Promise<void> {
  await tx.delete(signInFailures).where(eq(signInFailures.emailKey, emailKey))
}

export async function pruneFailures(tx: Tx, before: string): Promise<void> {
  await tx.delete(signInFailures).where(lt(signInFailures.at, before))
}

// ---- A person deleted

/** Everything of the person's own that the people module keeps: memberships, sessions, links, failures, the row. */
export async function deletePersonRows(tx: Tx, personId: number, emailKey: string): Promise<void> {
  await tx.delete(memberships).where(eq(memberships.personId, personId))
  await tx.delete(sessions).where(eq(sessions.personId, personId))
  await tx.delete(signInLinks).where(eq(signInLinks.personId, personId))
  await tx.delete(signInFailures).where(eq(signInFailures.emailKey, emailKey))
  await tx.delete(persons).where(eq(persons.id, personId))
}

/** The Businesses of a person with their Role there. */
export async function membershipsOf(q: Queryable, personId: number): Promise<MembershipRow[]> {
  return q.select().from(memberships).where(eq(memberships.personId, personId))
}
