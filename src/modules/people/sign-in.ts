// Signing in (extensions §9): password check with the same answer for unknown email and wrong password, the lockout
// after five failures in 15 minutes (kept in the database, so it holds across processes), one-time links to choose a
// password, and sessions that end after 12 hours idle, on sign-out and when the password changes.
import type { Database } from '../../db/client'
import type { Clock } from '../../shared/clock'
import { FieldErrorBag } from '../../shared/errors'
import { dummyHash, hashPassword, MAX_PASSWORD_LENGTH, passwordFault, verifyPassword } from './passwords'
import { emailKey } from './people.service'
import {
  clearFailures,
  endSession,
  endSessionsOf,
  failuresSince,
  findPersonByEmailKey,
  findPersonById,
  findSignInLink,
  insertFailure,
  insertSession,
  liveSessionByHash,
  pruneFailures,
  touchSession,
  updatePersonRow,
  useSignInLink,
  type PersonRow,
  type SessionRow,
  type SignInLinkRow,
} from './people.repo'
import { newToken, tokenHash } from './tokens'

export const LOCKOUT_FAILURES = 5
export const LOCKOUT_WINDOW_MS = 15 * 60 * 1000
export const LOCKOUT_MS = 15 * 60 * 1000
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000
/** A session's last-seen time is written at most this often: not a write transaction per page. */
export const TOUCH_EVERY_MS = 60 * 1000

export interface SignInDeps {
  db: Database
  clock: Clock
}

export type SignInResult =
  | { kind: 'signed_in'; person: PersonRow; token: string }
  | { kind: 'refused' }
  | { kind: 'locked'; until: string }

/**
 * When an email is locked: the fifth of five failures within 15 minutes starts 15 minutes of waiting. Attempts while
 * locked are not counted, so the wait is never stretched by the attempts it refuses.
 */
export function lockedUntil(failuresNewestFirst: string[], now: Date): Date | null {
  const times = failuresNewestFirst.map((t) => new Date(t).getTime()).sort((a, b) => a - b)
  let until = 0
  for (let i = LOCKOUT_FAILURES - 1; i < times.length; i++) {
    if (times[i]! - times[i - LOCKOUT_FAILURES + 1]! <= LOCKOUT_WINDOW_MS)
      until = Math.max(until, times[i]! + LOCKOUT_MS)
  }
  return until > now.getTime() ? new Date(until) : null
}

/** The lock on an email now, read inside the transaction that would count the next attempt. */
async function lockOf(q: Parameters<typeof failuresSince>[0], key: string, now: Date): Promise<Date | null> {
  // Failures older than one window plus one lockout cannot lock anything any more.
  const since = new Date(now.getTime() - LOCKOUT_WINDOW_MS - LOCKOUT_MS).toISOString()
  return lockedUntil(await failuresSince(q, key, since), now)
}

export async function signIn(deps: SignInDeps, email: string, password: string): Promise<SignInResult> {
  const key = emailKey(email).slice(0, 320)
  const now = deps.clock.now()
  // The attempt is counted as a failure before its password is checked, in the write transaction that judged the
  // lock (BEGIN IMMEDIATE: one at a time across every process on the file). Parallel attempts therefore take the
  // five places one by one, and the sixth finds the email locked without its password ever being tried; a right
  // password clears the count as it signs in.
  const locked = await deps.db.write(async (tx) => {
    const until = await lockOf(tx, key, now)
    if (until) return until
    await insertFailure(tx, key, now.toISOString())
    await pruneFailures(tx, new Date(now.getTime() - 24 * 60 * 60 * 1000).toISOString())
    return null
  })
  if (locked) return { kind: 'locked', until: locked.toISOString() }
  const person = key ? await findPersonByEmailKey(deps.db.read, key) : undefined
  // The hash is checked whatever the email, so an unknown one takes as long as a wrong password.
  const hash = person?.passwordHash ?? (await dummyHash())
  const ok = password.length <= MAX_PASSWORD_LENGTH && (await verifyPassword(password, hash)) && !!person?.passwordHash
  if (!ok || !person) return { kind: 'refused' }
  const token = await startSession(deps, person.id, async (tx) => clearFailures(tx, key))
  return { kind: 'signed_in', person, token }
}

async function startSession(
  deps: SignInDeps,
  personId: number,
  alsoInTx?: (tx: Parameters<Parameters<Database['write']>[0]>[0]) => Promise<void>,
): Promise<string> {
  const token = newToken()
  const now = deps.clock.now().toISOString()
  await deps.db.write(async (tx) => {
    await alsoInTx?.(tx)
    await insertSession(tx, { personId, tokenHash: tokenHash(token), createdAt: now, lastSeenAt: now })
  })
  return token
}

export interface LiveSession {
  session: SessionRow
  person: PersonRow
}

/** The session a cookie names, while it lives; refreshes its last-seen time at most once a minute. */
export async function resolveSession(deps: SignInDeps, token: string | undefined | null): Promise<LiveSession | null> {
  if (!token || token.length > 100) return null
  const session = await liveSessionByHash(deps.db.read, tokenHash(token))
  if (!session) return null
  const now = deps.clock.now()
  const seen = new Date(session.lastSeenAt).getTime()
  if (now.getTime() - seen >= SESSION_IDLE_MS) {
    await deps.db.write((tx) => endSession(tx, session.id, now.toISOString()))
    return null
  }
  const person = await findPersonById(deps.db.read, session.personId)
  if (!person) return null
  if (now.getTime() - seen >= TOUCH_EVERY_MS)
    await deps.db.write((tx) => touchSession(tx, session.id, now.toISOString()))
  return { session, person }
}

export async function signOut(deps: SignInDeps, session: SessionRow): Promise<void> {
  await deps.db.write((tx) => endSession(tx, session.id, deps.clock.now().toISOString()))
}

export type LinkState =
  | { kind: 'open'; link: SignInLinkRow; person: PersonRow }
  | { kind: 'used' }
  | { kind: 'expired' }
  | { kind: 'unknown' }

/** What a one-time link is now; opening it changes nothing (mail scanners open links too). */
export async function linkState(deps: SignInDeps, token: string): Promise<LinkState> {
  if (!token || token.length > 100) return { kind: 'unknown' }
  const link = await findSignInLink(deps.db.read, tokenHash(token))
  if (!link) return { kind: 'unknown' }
  if (link.usedAt) return { kind: 'used' }
  if (link.expiresAt <= deps.clock.now().toISOString()) return { kind: 'expired' }
  const person = await findPersonById(deps.db.read, link.personId)
  return person ? { kind: 'open', link, person } : { kind: 'unknown' }
}

/**
 * Uses a one-time link to set the password: the link is spent, every session of the person ends, and a new one
 * starts (the person is signed in). A used or expired link changes nothing.
 */
export async function choosePassword(
  deps: SignInDeps,
  token: string,
  password: string,
): Promise<{ kind: 'done'; token: string; person: PersonRow } | Exclude<LinkState, { kind: 'open' }>> {
  const bag = new FieldErrorBag()
  const fault = passwordFault(password)
  if (fault) bag.add('password', fault)
  const state = await linkState(deps, token)
  if (state.kind !== 'open') return state
  bag.throwIfAny()
  const hash = await hashPassword(password)
  const now = deps.clock.now().toISOString()
  const session = newToken()
  const used = await deps.db.write(async (tx) => {
    if (!(await useSignInLink(tx, state.link.id, now))) return false
    await updatePersonRow(tx, state.person.id, { passwordHash: hash, updatedAt: now })
    await endSessionsOf(tx, state.person.id, now)
    await clearFailures(tx, state.person.emailKey)
    await insertSession(tx, {
      personId: state.person.id,
      tokenHash: tokenHash(session),
      createdAt: now,
      lastSeenAt: now,
    })
    return true
  })
  if (!used) return { kind: 'used' }
  return { kind: 'done', token: session, person: state.person }
}

/** Profile: a new password, given the current one; every session ends and a fresh one is answered for this browser. */
export async function changePassword(
  deps: SignInDeps,
  person: PersonRow,
  current: string,
  next: string,
): Promise<string> {
  const bag = new FieldErrorBag()
  const ok =
    current.length <= MAX_PASSWORD_LENGTH &&
    !!person.passwordHash &&
    (await verifyPassword(current, person.passwordHash))
  if (!ok) bag.add('current_password', 'is not your current password')
  const fault = passwordFault(next)
  if (fault) bag.add('new_password', fault)
  bag.throwIfAny()
  const hash = await hashPassword(next)
  const now = deps.clock.now().toISOString()
  const session = newToken()
  await deps.db.write(async (tx) => {
    await updatePersonRow(tx, person.id, { passwordHash: hash, updatedAt: now })
    await endSessionsOf(tx, person.id, now)
    await insertSession(tx, { personId: person.id, tokenHash: tokenHash(session), createdAt: now, lastSeenAt: now })
  })
  return session
}

export async function renamePerson(deps: SignInDeps, personId: number, name: string | undefined): Promise<void> {
  const bag = new FieldErrorBag()
  const n = name?.trim() ?? ''
  if (!n) bag.add('name', 'is required')
  else if (n.length > 255) bag.add('name', 'must be at most 255 characters')
  bag.throwIfAny()
  await deps.db.write((tx) => updatePersonRow(tx, personId, { name: n, updatedAt: deps.clock.now().toISOString() }))
}
