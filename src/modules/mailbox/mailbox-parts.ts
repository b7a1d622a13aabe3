// A Business's SMTP mailbox as a settings page asks for it: host, port, security, username, password and From, put
// together into the one URL setMailbox checks and seals (the CLI gives that URL itself). A password left blank keeps
// the stored one; what the page shows back is every part but the password.
import type { Database, Queryable } from '../../db/client'
import type { Clock } from '../../shared/clock'
import { FieldErrorBag } from '../../shared/errors'
import type { SecretBox } from '../../shared/secret-box'
import { parseSmtpUrl } from '../../adapters/smtp'
import { findMailbox, type MailboxRow } from './mailbox.repo'
import { mailboxFromFault, mailHostFault, setMailbox, type MailHostRules } from './mailbox.service'

/** smtps:// (TLS from the first byte, usually port 465) or smtp:// with STARTTLS required (usually 587). */
export const SMTP_SECURITY = ['starttls', 'tls'] as const
export type SmtpSecurity = (typeof SMTP_SECURITY)[number]
const DEFAULT_PORT: Record<SmtpSecurity, number> = { starttls: 587, tls: 465 }

export interface SmtpParts {
  host?: string
  port?: string
  security?: string
  username?: string
  /** Blank or absent: keep the stored password. */
  password?: string
  from?: string
}

/** What a page shows of the stored mailbox: never the password, only whether there is one. */
export interface SmtpShown {
  host: string
  port: number
  security: SmtpSecurity
  username: string | null
  hasPassword: boolean
  from: string
}

// A host name (letters, digits, dots, hyphens), an IPv4 address, or an IPv6 address with or without its brackets.
const HOST_RE =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$|^\[?[0-9A-Fa-f:.]+\]?$/

/** The stored mailbox's parts, or null when the Business has no SMTP mailbox. */
export async function smtpMailboxShown(
  q: Queryable,
  secrets: SecretBox,
  businessId: number,
): Promise<SmtpShown | null> {
  const row = await findMailbox(q, businessId)
  if (!row || row.kind !== 'smtp' || !row.smtpUrl) return null
  const p = parseSmtpUrl(secrets.open(row.smtpUrl, 'smtp-url'))
  return {
    host: p.host,
    port: p.port,
    security: p.secure ? 'tls' : 'starttls',
    username: p.user,
    hasPassword: p.pass !== null,
    from: row.fromAddress,
  }
}

/**
 * Sets the SMTP mailbox from its parts: each part judged under its own field, then the URL they make goes through
 * setMailbox (the CLI's path: its checks, sealed at rest), whose own errors (the From address) join the same answer.
 */
export async function setSmtpMailbox(
  db: Database,
  clock: Clock,
  businessId: number,
  parts: SmtpParts,
  rules: MailHostRules,
): Promise<MailboxRow> {
  const bag = new FieldErrorBag()
  const host = parts.host?.trim() ?? ''
  if (!host) bag.add('host', 'is required, e.g. smtp.example.com')
  else if (host.length > 253 || !HOST_RE.test(host))
    bag.add('host', 'must be a host name or IP address, such as smtp.example.com')
  else {
    const fault = mailHostFault(host, rules)
    if (fault) bag.add('host', fault)
  }
  const security = (parts.security?.trim() || 'starttls') as SmtpSecurity
  if (!SMTP_SECURITY.includes(security)) bag.add('security', `must be one of ${SMTP_SECURITY.join(', ')}`)
  const portText = parts.port?.trim() ?? ''
  const port = portText === '' ? (DEFAULT_PORT[security] ?? 587) : /^\d{1,5}$/.test(portText) ? Number(portText) : NaN
  if (!(port >= 1 && port <= 65535)) bag.add('port', 'must be a whole number from 1 to 65535')
  const username = parts.username?.trim() ?? ''
  if (username.length > 255) bag.add('username', 'must be at most 255 characters')
  let password = parts.password ?? ''
  if (password.length > 1000) bag.add('password', 'must be at most 1000 characters')
  if (password === '' && username) {
    // Blank keeps the stored password (a page never shows it back, so a person cannot retype what they cannot see);
    // with none stored, the login is the username alone.
    password = (await smtpMailboxPassword(db.read, db.secrets, businessId)) ?? ''
  }
  if (password && !username) bag.add('username', 'is required with a password')
  const fromFault = mailboxFromFault(parts.from)
  if (fromFault) bag.add('from', fromFault)
  bag.throwIfAny()
  const hostPart = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host
  const login = username ? `${encodeURIComponent(username)}${password ? `:${encodeURIComponent(password)}` : ''}@` : ''
  const url = `${security === 'tls' ? 'smtps' : 'smtp'}://${login}${hostPart}:${port}`
  return setMailbox(db, clock, businessId, { kind: 'smtp', smtpUrl: url, from: parts.from }, rules)
}

async function smtpMailboxPassword(q: Queryable, secrets: SecretBox, businessId: number): Promise<string | null> {
  const row = await findMailbox(q, businessId)
  if (!row || row.kind !== 'smtp' || !row.smtpUrl) return null
  return parseSmtpUrl(secrets.open(row.smtpUrl, 'smtp-url')).pass
}
