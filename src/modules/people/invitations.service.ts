// Invitations in the application (extensions §8): an Owner or Admin invites by email and the invitation goes to that
// address, never to the inviter; the membership is pending until its person, signed in, accepts it. What the inviter
// sees is the same whether or not the email has an account, so the form tells nobody who has one.
import { MailerError, type Mailer, type MailMessage } from '../../adapters/smtp'
import type { Database, Tx } from '../../db/client'
import type { Role } from '../../platform/actor'
import type { Clock } from '../../shared/clock'
import { utcDay } from '../../shared/dates'
import { FieldErrorBag, NotDelivered, NotFound, Refusal, refusalInfo } from '../../shared/errors'
import type { Logger } from '../../shared/logger'
import { getBusiness, resolveBusiness } from '../business'
import { countRecipients, mailStateOf, type Provider } from '../mailbox'
import {
  activateMembership,
  deleteMembership,
  deletePersonRows,
  findMembership,
  findPersonByEmailKey,
  findSignInLink,
  insertPerson,
  membershipsOf,
  membershipsWithBusinesses,
  upsertMembership,
  useSignInLink,
  type MembershipRow,
  type PersonRow,
} from './people.repo'
import { checkChange, checkEmail, checkRole, emailKey, newSignInLinkIn, signInLinkPath } from './people.service'
import { tokenHash } from './tokens'

export interface InviteDeps {
  db: Database
  clock: Clock
  mailer: Mailer
  logger: Logger
  config: { mailRelay: string | null }
}

/** Who invites: into which Business, with which Role of their own, under which name; and where links point. */
export interface Inviter {
  businessId: number
  role: Role
  name: string
  /** The service's public address (INVOICING_PUBLIC_URL, else the server's own): every link starts with it. */
  publicBase: string
}

/** Where a person accepts (or declines) the invitations waiting for them. */
export const INVITATIONS_PATH = '/app/invitations'

const ROLE_WORDS: Record<Role, string> = { owner: 'Owner', admin: 'Admin', member: 'Member', viewer: 'Viewer' }

type Connected = Extract<Provider, { connected: true }>

/** What the transaction decided, for the email and for undoing it should the email not go out. */
interface Planned {
  provider: Connected
  person: PersonRow
  createdPerson: boolean
  /** The membership as it was before (undefined: there was none). */
  before: MembershipRow | undefined
  /** A one-time link to choose a password: only for a person who has none. */
  token: string | null
  linkHash: string | null
  counted: boolean
  day: string
}

/**
 * Invites `email` into the inviter's Business with `role`. The answer is nothing at all (no link, no word on
 * whether the email had an account): the email carries the rest. Refused as a Send is (no_mail_provider,
 * mail_account_lost, sending_limit_reached), adding nobody, when the Business has no way to send it (the operator's
 * CLI adds people at once instead). Someone already active in the Business is refused on the email field; a pending
 * invitation is sent again (with the Role now chosen).
 */
export async function inviteMember(
  deps: InviteDeps,
  by: Inviter,
  input: { email?: string; name?: string; role?: string },
): Promise<void> {
  const bag = new FieldErrorBag()
  const email = checkEmail(input.email, bag)
  const role = checkRole(input.role, bag)
  const name = input.name?.trim() ?? ''
  if (name.length > 255) bag.add('name', 'must be at most 255 characters')
  bag.throwIfAny()
  checkChange(by.role, role, undefined)
  const business = await getBusiness(deps.db.read, by.businessId)
  const now = deps.clock.now()
  const nowIso = now.toISOString()
  const day = utcDay(now)

  const plan: Planned = await deps.db.write(async (tx) => {
    const mail = await mailStateOf(tx, business, deps.config.mailRelay, day, 'person')
    // The Send's refusals, in the catalog's words: the page shows them, and nobody is added.
    const mailRemedy = { remedy: 'connect_mail_provider' }
    if (!mail.provider) throw Refusal.of({ ...refusalInfo('no_mail_provider', { why: mail.noMail }), ...mailRemedy })
    if (!mail.provider.connected)
      throw Refusal.of({ ...refusalInfo('mail_account_lost', { via: mail.provider.kind }), ...mailRemedy })
    if (mail.dailyLimit !== null && mail.sentToday + 1 > mail.dailyLimit) {
      throw Refusal.of({
        ...refusalInfo('sending_limit_reached', {
          limit: mail.dailyLimit,
          sentToday: mail.sentToday,
          recipients: 1,
          resumesOn: mail.resumesOn,
        }),
        ...mailRemedy,
      })
    }
    const key = emailKey(email)
    let person = await findPersonByEmailKey(tx, key)
    const createdPerson = !person
    person ??= await insertPerson(tx, {
      email,
      emailKey: key,
      name: name || email.split('@')[0]!,
      passwordHash: null,
      createdAt: nowIso,
      updatedAt: nowIso,
    })
    const current = await findMembership(tx, person.id, by.businessId)
    // Members are listed to this Admin already, so saying so tells nothing about accounts.
    if (current?.state === 'active')
      bag.add('email', 'is a member of this Business already: change their Role in the list above')
    bag.throwIfAny()
    checkChange(by.role, role, current)
    await upsertMembership(tx, {
      personId: person.id,
      businessId: by.businessId,
      role,
      state: 'pending',
      createdAt: current?.createdAt ?? nowIso,
    })
    // A person without a password (new, or an earlier link unused) gets one to choose it; it goes to their address only.
    let token: string | null = null
    if (!person.passwordHash) token = await newSignInLinkIn(tx, person.id, now)
    const counted = mail.dailyLimit !== null
    if (counted) await countRecipients(tx, by.businessId, day, 1)
    return {
      provider: mail.provider,
      person,
      createdPerson,
      before: current,
      token,
      linkHash: token ? tokenHash(token) : null,
      counted,
      day,
    }
  })

  try {
    await deps.mailer.send(plan.provider.transportUrl, invitationEmail(business.name, by, plan, role, email))
  } catch (e) {
    await undo(deps, by.businessId, plan, !(e instanceof MailerError) || !e.maybeSent)
    if (!(e instanceof MailerError)) throw e
    deps.logger.info('invitation not delivered', {
      business_id: by.businessId,
      via: plan.provider.kind,
      reason: e.reason,
      smtp_code: e.smtpCode,
    })
    throw new NotDelivered(`The invitation was not sent: ${e.message}. Nobody was added; try again later.`)
  }
}

/** An invitation that did not go out leaves nothing behind: its link, its membership, a person made for it. */
async function undo(deps: InviteDeps, businessId: number, plan: Planned, surelyUnsent: boolean): Promise<void> {
  const at = deps.clock.now().toISOString()
  await deps.db.write(async (tx: Tx) => {
    if (plan.linkHash) {
      const link = await findSignInLink(tx, plan.linkHash)
      if (link) await useSignInLink(tx, link.id, at)
    }
    if (plan.before) await upsertMembership(tx, plan.before)
    else await deleteMembership(tx, plan.person.id, businessId, true)
    if (plan.createdPerson && (await membershipsOf(tx, plan.person.id)).length === 0)
      await deletePersonRows(tx, plan.person.id, plan.person.emailKey)
    if (plan.counted && surelyUnsent) await countRecipients(tx, businessId, plan.day, -1)
  })
}

function invitationEmail(businessName: string, by: Inviter, plan: Planned, role: Role, to: string): MailMessage {
  const who = `${by.name} invites you to ${businessName} as ${ROLE_WORDS[role]}`
  const next = plan.token
    ? [
        'Choose your password with this link; it works once, within 30 minutes:',
        by.publicBase + signInLinkPath(plan.token),
        '',
        `Then accept the invitation on the page you land on. Should the link have expired, ask ${businessName} to invite you again.`,
      ]
    : ['Sign in and accept it here:', by.publicBase + INVITATIONS_PATH]
  return {
    from: { name: businessName, address: plan.provider.from },
    to: [to],
    cc: [],
    bcc: [],
    subject: `${businessName} invites you to invoicing`,
    text: [
      'Hello,',
      '',
      `${who}, to work on its invoices.`,
      '',
      ...next,
      '',
      'Nothing happens unless you accept. If you did not expect this email, ignore it.',
      '',
    ].join('\n'),
    attachments: [],
  }
}

export interface InvitationView {
  publicId: string
  businessName: string
  role: Role
  invitedAt: string
}

/** The Businesses a person may open, and the invitations waiting for them: one read, parted by the membership's state. */
export async function businessesOfPerson(q: Database['read'], personId: number) {
  const rows = await membershipsWithBusinesses(q, personId)
  return {
    open: rows.filter((r) => r.state === 'active'),
    invitations: rows
      .filter((r) => r.state === 'pending')
      .map(
        (r): InvitationView => ({ publicId: r.publicId, businessName: r.name, role: r.role, invitedAt: r.invitedAt }),
      ),
  }
}

/** The signed-in person accepts an invitation: the membership acts from now on. */
export async function acceptInvitation(
  deps: { db: Database },
  personId: number,
  businessRef: string,
): Promise<{ publicId: string }> {
  const business = await resolveBusiness(deps.db.read, businessRef).catch(() => null)
  const done = business ? await deps.db.write((tx) => activateMembership(tx, personId, business.id)) : false
  if (!business || !done) throw new NotFound('There is no invitation to that Business waiting for you.')
  return { publicId: business.publicId }
}

/** The signed-in person declines an invitation: the pending membership goes; an active one is not touched. */
export async function declineInvitation(deps: { db: Database }, personId: number, businessRef: string): Promise<void> {
  const business = await resolveBusiness(deps.db.read, businessRef).catch(() => null)
  const done = business ? await deps.db.write((tx) => deleteMembership(tx, personId, business.id, true)) : false
  if (!business || !done) throw new NotFound('There is no invitation to that Business waiting for you.')
}
