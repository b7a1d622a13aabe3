// People and memberships (extensions §8): add a person, one-time sign-in links, members of a Business by Role.
import type { Database, Tx } from '../../db/client'
import { ROLES, type Role } from '../../platform/actor'
import type { Clock } from '../../shared/clock'
import { FieldErrorBag, NotFound, Permission, Refusal } from '../../shared/errors'
import { isEmailAddress } from '../../shared/text'
import { newToken, tokenHash } from './tokens'
import {
  countOwners,
  deleteMembership,
  deletePersonRows,
  membershipsOf,
  findMembership,
  findPersonByEmailKey,
  insertPerson,
  insertSignInLink,
  membersOf,
  upsertMembership,
  type MemberView,
  type MembershipRow,
  type PersonRow,
} from './people.repo'
import { deleteAppsOfOwner, endConnectionsOfMember } from '../oauth'

export interface PeopleDeps {
  db: Database
  clock: Clock
}

const SIGN_IN_LINK_MS = 30 * 60 * 1000

/** A one-time sign-in link for the person, written in `tx`: its token, of which only the hash is kept. */
export async function newSignInLinkIn(tx: Tx, personId: number, now: Date): Promise<string> {
  const token = newToken()
  await insertSignInLink(tx, {
    personId,
    tokenHash: tokenHash(token),
    expiresAt: new Date(now.getTime() + SIGN_IN_LINK_MS).toISOString(),
    createdAt: now.toISOString(),
  })
  return token
}

/** Emails are compared case-blind: the key is the trimmed, lower-cased address. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase()
}

export function presentMember(m: MemberView) {
  // `state`: pending for an invitation of the application not yet accepted; the operator's `member add` makes it active.
  return { person_id: m.personId, email: m.email, name: m.name, role: m.role, state: m.state, since: m.createdAt }
}

export function checkEmail(email: string | undefined, bag: FieldErrorBag): string {
  const e = email?.trim() ?? ''
  if (!e) bag.add('email', 'is required')
  else if (e.length > 255 || !isEmailAddress(e)) bag.add('email', 'must be an email address')
  return e
}

/** The path of a one-time link; the caller puts the service's public URL before it. */
export function signInLinkPath(token: string): string {
  return `/app/sign-in/link/${token}`
}

/** Adds a person (no password yet) and a first sign-in link. */
export async function addPerson(
  deps: PeopleDeps,
  input: { email?: string; name?: string },
): Promise<{ person: PersonRow; token: string }> {
  const bag = new FieldErrorBag()
  const email = checkEmail(input.email, bag)
  const name = input.name?.trim() ?? ''
  if (!name) bag.add('name', 'is required')
  else if (name.length > 255) bag.add('name', 'must be at most 255 characters')
  bag.throwIfAny()
  const now = deps.clock.now()
  return deps.db.write(async (tx) => {
    if (await findPersonByEmailKey(tx, emailKey(email))) {
      throw Refusal.say('person_exists', { email })
    }
    const person = await insertPerson(tx, {
      email,
      emailKey: emailKey(email),
      name,
      passwordHash: null,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    })
    return { person, token: await newSignInLinkIn(tx, person.id, now) }
  })
}

/** A new one-time sign-in link for a known person (the self-hoster's "forgot password"). */
export async function newSignInLink(
  deps: PeopleDeps,
  email: string | undefined,
): Promise<{ person: PersonRow; token: string }> {
  const bag = new FieldErrorBag()
  const e = checkEmail(email, bag)
  bag.throwIfAny()
  const now = deps.clock.now()
  return deps.db.write(async (tx) => {
    const person = await findPersonByEmailKey(tx, emailKey(e))
    if (!person) throw new NotFound(`No person with the email ${e}.`)
    return { person, token: await newSignInLinkIn(tx, person.id, now) }
  })
}

export async function findPerson(deps: PeopleDeps, email: string): Promise<PersonRow | undefined> {
  return findPersonByEmailKey(deps.db.read, emailKey(email))
}

/**
 * Who changes a membership: the operator (CLI) may do anything; in the application an Owner may, and an Admin may
 * manage Admins, Members and Viewers but neither make nor unmake an Owner.
 */
export type MembershipChanger = 'operator' | Role

function mayTouch(by: MembershipChanger, role: Role): boolean {
  return by === 'operator' || by === 'owner' || (by === 'admin' && role !== 'owner')
}

export function checkRole(role: string | undefined, bag: FieldErrorBag): Role {
  if (!ROLES.includes(role as Role)) bag.add('role', `must be one of ${ROLES.join(', ')}`)
  return role as Role
}

const LAST_OWNER = () => Refusal.say('last_owner')

/** Adds a person to a Business, or changes their Role there: the operator's `member add`, active at once (§8). */
export async function addMember(
  deps: PeopleDeps,
  businessId: number,
  input: { email?: string; role?: string },
  by: MembershipChanger = 'operator',
): Promise<MemberView> {
  return setRole(deps, businessId, input, by, 'add')
}

/**
 * The application's Role change of someone already in the Business (a pending membership stays pending). It never adds
 * anyone: in the application a person joins only through an invitation they accept (invitations.service.ts).
 */
export async function changeMemberRole(
  deps: PeopleDeps,
  businessId: number,
  input: { email?: string; role?: string },
  by: Role,
): Promise<MemberView> {
  return setRole(deps, businessId, input, by, 'change')
}

async function setRole(
  deps: PeopleDeps,
  businessId: number,
  input: { email?: string; role?: string },
  by: MembershipChanger,
  mode: 'add' | 'change',
): Promise<MemberView> {
  const bag = new FieldErrorBag()
  const email = checkEmail(input.email, bag)
  const role = checkRole(input.role, bag)
  bag.throwIfAny()
  return deps.db.write(async (tx) => {
    const person = await findPersonByEmailKey(tx, emailKey(email))
    const current = person ? await findMembership(tx, person.id, businessId) : undefined
    if (!person || (mode === 'change' && !current))
      throw new NotFound(
        mode === 'add'
          ? `No person with the email ${email}; add them first.`
          : `${email} is not a member of this Business.`,
      )
    checkChange(by, role, current)
    if (current) await keepsAnOwner(tx, businessId, current, role)
    const createdAt = current?.createdAt ?? deps.clock.now().toISOString()
    const state = mode === 'add' ? 'active' : (current?.state ?? 'active')
    await upsertMembership(tx, { personId: person.id, businessId, role, state, createdAt }, mode === 'add')
    return { personId: person.id, email: person.email, name: person.name, role, state, createdAt }
  })
}

/** Who may give `role` to a membership that is `current` now (only an Owner makes or unmakes an Owner). */
export function checkChange(by: MembershipChanger, role: Role, current: MembershipRow | undefined): void {
  if (!mayTouch(by, role) || (current && !mayTouch(by, current.role)))
    throw new Permission('Only an Owner makes or unmakes an Owner.')
}

/** A Business keeps an active Owner: the last one is neither removed nor given another Role (`role` null: removed). */
async function keepsAnOwner(tx: Tx, businessId: number, current: MembershipRow, role: Role | null): Promise<void> {
  if (
    current.role === 'owner' &&
    current.state === 'active' &&
    role !== 'owner' &&
    (await countOwners(tx, businessId)) <= 1
  )
    throw LAST_OWNER()
}

export async function listMembers(deps: PeopleDeps, businessId: number): Promise<MemberView[]> {
  return membersOf(deps.db.read, businessId)
}

/** Removes a membership; the person's sessions lose the Business at once (access is asked on every request). */
export async function removeMember(
  deps: PeopleDeps,
  businessId: number,
  email: string | undefined,
  by: MembershipChanger = 'operator',
): Promise<void> {
  const bag = new FieldErrorBag()
  const e = checkEmail(email, bag)
  bag.throwIfAny()
  await deps.db.write(async (tx) => {
    const person = await findPersonByEmailKey(tx, emailKey(e))
    const current = person ? await findMembership(tx, person.id, businessId) : undefined
    if (!person || !current) throw new NotFound(`${e} is not a member of this Business.`)
    if (!mayTouch(by, current.role)) throw new Permission('Only an Owner makes or unmakes an Owner.')
    await keepsAnOwner(tx, businessId, current, null)
    await deleteMembership(tx, person.id, businessId)
    // §8: every app the person connected in that Business ends with the membership (and its webhook stops hearing it).
    await endConnectionsOfMember(tx, person.id, businessId, deps.clock.now().toISOString())
  })
}

/** The person becomes an Owner of a Business being created, inside the creating transaction. */
export async function makeOwner(tx: Tx, personId: number, businessId: number, clock: Clock): Promise<void> {
  await upsertMembership(tx, { personId, businessId, role: 'owner', createdAt: clock.now().toISOString() })
}

/**
 * `invoicing person delete --email E`: the person is gone. Refused while they are the last Owner of a Business (it
 * keeps one). In one transaction: every app they connected ends in every Business (§8), the OAuth apps they own are
 * deleted with their webhooks and deliveries, and so every Connected app of those apps ends (contract, "OAuth app's
 * webhook"), and their memberships, sessions and sign-in links go.
 */
export async function deletePerson(
  deps: PeopleDeps,
  email: string | undefined,
): Promise<{ id: number; email: string; apps_deleted: number }> {
  const bag = new FieldErrorBag()
  const e = checkEmail(email, bag)
  bag.throwIfAny()
  return deps.db.write(async (tx) => {
    const person = await findPersonByEmailKey(tx, emailKey(e))
    if (!person) throw new NotFound(`No person with the email ${e}.`)
    const at = deps.clock.now().toISOString()
    for (const m of await membershipsOf(tx, person.id)) {
      await keepsAnOwner(tx, m.businessId, m, null)
      await endConnectionsOfMember(tx, person.id, m.businessId, at)
    }
    const apps = await deleteAppsOfOwner(tx, person.id)
    await deletePersonRows(tx, person.id, emailKey(e))
    return { id: person.id, email: person.email, apps_deleted: apps }
  })
}
