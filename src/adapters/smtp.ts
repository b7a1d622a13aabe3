// SMTP: hands one email to a mail server named by an smtp:// or smtps:// URL (nodemailer speaks the protocol).
import { isIP } from 'node:net'
import { Readable } from 'node:stream'
import type MailComposerType from 'nodemailer/lib/mail-composer'
import type SMTPConnection from 'nodemailer/lib/smtp-connection'

// nodemailer is loaded on the first email, not at start: it costs ~20 MB of memory a server that never mails should not pay.
const nodemailer = {
  composer: () => import('nodemailer/lib/mail-composer').then((m) => m.default as typeof MailComposerType),
  connection: () => import('nodemailer/lib/smtp-connection').then((m) => m.default as typeof SMTPConnection),
}

export interface MailAttachment {
  filename: string
  content: Uint8Array | string
  contentType: string
}

export interface MailMessage {
  from: { name: string; address: string }
  replyTo?: string
  to: string[]
  cc: string[]
  /** Envelope recipients only: never written into the message's headers. */
  bcc: string[]
  subject: string
  text: string
  attachments: MailAttachment[]
}

export interface MailReceipt {
  messageId: string
  accepted: string[]
}

/**
 * Why an email did not go out. `refused`: the server answered no (nothing sent); `unreachable`: no server took the
 * conversation as far as the message (nothing sent); `interrupted`: the connection failed once the message was on
 * its way, so it may have been delivered.
 */
export type FailureReason = 'refused' | 'unreachable' | 'interrupted'

export class MailerError extends Error {
  constructor(
    readonly reason: FailureReason,
    message: string,
    /** The server's SMTP reply code, when it answered one. */
    readonly smtpCode: number | null = null,
    /** Recipients the server took although it refused others: the email went to them. */
    readonly accepted: string[] = [],
  ) {
    super(message)
    this.name = 'MailerError'
  }
  /** Whether the email may have reached someone, so the attempt still counts. */
  get maybeSent(): boolean {
    return this.reason === 'interrupted' || this.accepted.length > 0
  }
}

/**
 * How to reach a Business's own mail server (its tenant's choice, judged by src/modules/mailbox): none for the
 * service's own relay, which the operator configured.
 */
export interface TenantRoute {
  /** The address to connect to, already checked against the address rules; the URL's host names it for TLS. */
  address: string
  /** A login may cross without TLS (INVOICING_SMTP_ALLOW_PLAIN_LOGIN); otherwise smtp:// must upgrade with STARTTLS. */
  plainLogin: boolean
}

export interface Mailer {
  /**
   * Sends through the server of `transportUrl`; rejects with a MailerError when it did not take the email. With a
   * tenant route, it connects to that address, and every failure to reach the server is answered alike.
   */
  send(transportUrl: string, message: MailMessage, tenant?: TenantRoute): Promise<MailReceipt>
}

export interface SmtpTimeouts {
  connectionMs: number
  greetingMs: number
  socketMs: number
  /**
   * A tenant's server has this long in all to accept, greet and secure the connection, and every failure to do so is
   * answered at this time (default: connectionMs).
   */
  reachMs?: number
}

// A tenant's server not reached is answered at 8 s: within `serve`'s 10 s idle timeout, which would otherwise cut
// the request with no answer at all.
const DEFAULT_TIMEOUTS: SmtpTimeouts = { connectionMs: 10_000, greetingMs: 10_000, socketMs: 20_000, reachMs: 8_000 }

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|::1)$/i

/** The URL's parts; refuses anything but smtp:// or smtps:// with a host and no path, query or fragment. */
export function parseSmtpUrl(url: string): {
  secure: boolean
  host: string
  port: number
  user: string | null
  pass: string | null
} {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    throw new Error('is not a URL')
  }
  if (u.protocol !== 'smtp:' && u.protocol !== 'smtps:') throw new Error('must start smtp:// or smtps://')
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1')
  if (!host) throw new Error('must name a host')
  // Query options would reach nodemailer's own URL options (other transports among them): none are taken.
  if ((u.pathname && u.pathname !== '/') || u.search || u.hash) throw new Error('takes no path, query or fragment')
  const secure = u.protocol === 'smtps:'
  let user: string | null = null
  let pass: string | null = null
  try {
    user = u.username ? decodeURIComponent(u.username) : null
    pass = u.password ? decodeURIComponent(u.password) : null
  } catch {
    throw new Error('has a user or password that is not URL-encoded')
  }
  return { secure, host, port: u.port ? Number(u.port) : secure ? 465 : 587, user, pass }
}

/** The URL with its password masked, for messages and logs. */
export function redactSmtpUrl(url: string): string {
  try {
    const u = new URL(url)
    if (u.password) u.password = '***'
    return u.toString()
  } catch {
    return '(unreadable URL)'
  }
}

/** nodemailer's connection options and the login (if the URL has one) for a server URL. */
export function transportOptions(
  url: string,
  t: SmtpTimeouts = DEFAULT_TIMEOUTS,
  tenant?: TenantRoute,
): { options: SMTPConnection.Options; auth: SMTPConnection.Credentials | null } {
  const p = parseSmtpUrl(url)
  // The operator's relay on loopback is trusted to be this machine's; a tenant's server never is, wherever it is.
  const plainAllowed = tenant ? tenant.plainLogin : LOOPBACK.test(p.host)
  const options: SMTPConnection.Options = {
    // A tenant's server is reached at the address that was checked, never by resolving its name again (a name that
    // answers differently a moment later cannot reach an internal host); TLS still checks the certificate's name.
    host: tenant?.address ?? p.host,
    ...(tenant && !isIP(p.host) ? { servername: p.host } : {}),
    port: p.port,
    // smtps:// is TLS from the first byte; smtp:// must upgrade with STARTTLS (a server, or someone in between, that
    // does not offer it is refused, so a login never crosses in clear), except where plain is allowed: the relay on
    // loopback, where a local relay's certificate would be checked for nothing, or a tenant's server when the
    // operator allowed it (STARTTLS is still used when offered).
    secure: p.secure,
    ignoreTLS: !p.secure && !tenant && plainAllowed,
    requireTLS: !p.secure && !plainAllowed,
    tls: { minVersion: 'TLSv1.2' },
    connectionTimeout: t.connectionMs,
    greetingTimeout: t.greetingMs,
    socketTimeout: t.socketMs,
    // No protocol logging: the AUTH exchange carries the password.
    logger: false,
    debug: false,
  }
  return { options, auth: p.user !== null || p.pass !== null ? { user: p.user ?? '', pass: p.pass ?? '' } : null }
}

export type Stage = 'connect' | 'login' | 'envelope' | 'data'

const NETWORK_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ETLS', 'EPROXY', 'ESTREAM', 'EABORT'])

/**
 * Reads nodemailer's error, given how far the conversation got, into a reason. Only the reply code is kept:
 * nodemailer's own text may quote the server, and nothing of ours (credentials) may leak into a message.
 */
function classify(e: any, stage: Stage): MailerError {
  const code: string = String(e?.code ?? '')
  const responseCode = typeof e?.responseCode === 'number' ? e.responseCode : null
  const smtp = responseCode ? ` (SMTP ${responseCode})` : ''
  if (!responseCode && (NETWORK_CODES.has(code) || !code)) {
    // Once the message is being written, a lost connection may come after the server took it.
    if (stage === 'data')
      return new MailerError('interrupted', 'the connection to the mail server failed while the email was being sent')
    return new MailerError(
      'unreachable',
      `the mail server could not be reached or dropped the connection before the email (${code || 'no answer'})`,
    )
  }
  if (code === 'EAUTH' || code === 'ENOAUTH')
    return new MailerError('refused', `the mail server refused the login${smtp}`, responseCode)
  if (code === 'EENVELOPE') {
    const rejected = Array.isArray(e?.rejected) && e.rejected.length ? `: ${e.rejected.join(', ')}` : ''
    return new MailerError('refused', `the mail server refused the recipients${rejected}${smtp}`, responseCode)
  }
  return new MailerError('refused', `the mail server refused the email${smtp}`, responseCode)
}

/**
 * The MIME message an email is sent as (headers, text, attachments; Bcc never in the headers). The SMTP path sends
 * these bytes; a Test business's outbox keeps them (src/modules/outbox), dated by the service's clock.
 */
export async function composeMime(m: MailMessage, date?: Date): Promise<Buffer> {
  const MailComposer = await nodemailer.composer()
  return new MailComposer({
    date,
    from: { name: m.from.name, address: m.from.address },
    replyTo: m.replyTo,
    to: m.to,
    cc: m.cc.length ? m.cc : undefined,
    // Bcc stays out of the headers: it is in the envelope only.
    subject: m.subject,
    text: m.text,
    attachments: m.attachments.map((a) => ({
      filename: a.filename,
      content: typeof a.content === 'string' ? a.content : Buffer.from(a.content),
      contentType: a.contentType,
    })),
    disableFileAccess: true,
    disableUrlAccess: true,
  })
    .compile()
    .build()
}

/**
 * The real mailer: one connection per email, closed after it (sends are rare; no pool to keep alive). It drives
 * nodemailer's SMTP connection step by step, so that it knows whether a failure came before the message or during it.
 */
export function smtpMailer(timeouts: SmtpTimeouts = DEFAULT_TIMEOUTS): Mailer {
  return {
    async send(transportUrl, m, tenant) {
      const { options, auth } = transportOptions(transportUrl, timeouts, tenant)
      const raw = await composeMime(m)
      const Connection = await nodemailer.connection()
      const conn = new Connection(options)
      let stage: Stage = 'connect'
      const started = Date.now()
      const reachMs = timeouts.reachMs ?? timeouts.connectionMs
      let deadline: ReturnType<typeof setTimeout> | undefined
      try {
        const info = await new Promise<SMTPConnection.SentMessageInfo>((resolve, reject) => {
          // Socket failures arrive as 'error' events, command failures through the callbacks: the first one wins.
          conn.once('error', reject)
          // A tenant's server has reachMs in all to connect, greet and secure the line: a slow connect followed by a
          // silent server takes no longer than a port that never answers.
          if (tenant)
            deadline = setTimeout(
              () =>
                stage === 'connect' && reject(Object.assign(new Error('connection timeout'), { code: 'ETIMEDOUT' })),
              reachMs,
            )
          conn.connect((err) => {
            if (err) return reject(err)
            const send = () => {
              stage = 'envelope'
              // Read only once the server has said go ahead to DATA: from then on it may hold the message.
              const body = new Readable({
                read() {
                  stage = 'data'
                  this.push(raw)
                  this.push(null)
                },
              })
              conn.send({ from: m.from.address, to: [...m.to, ...m.cc, ...m.bcc] }, body, (e, sent) =>
                e ? reject(e) : resolve(sent),
              )
            }
            if (!auth) return send()
            stage = 'login'
            conn.login(auth, (e) => (e ? reject(e) : send()))
          })
        })
        const accepted = info.accepted.map(String)
        // The server took the email for some recipients and turned others away: not delivered as asked.
        if (info.rejected.length > 0) {
          throw new MailerError(
            'refused',
            `the mail server refused the recipients ${info.rejected.join(', ')}; the email went to ${accepted.join(', ')}`,
            null,
            accepted,
          )
        }
        return { messageId: messageIdOf(raw), accepted }
      } catch (e) {
        const failure = e instanceof MailerError ? e : classify(e, stage)
        if (tenant && stage === 'connect' && failure.reason === 'unreachable') {
          // A closed port answers at once and a filtered one at the timeout: told apart, a tenant could map which
          // ports are open on a host. Every failure to reach a tenant's server is answered alike, at reachMs.
          await new Promise((r) => setTimeout(r, Math.max(0, reachMs - (Date.now() - started))))
          throw new MailerError(
            'unreachable',
            'the mail server could not be reached, or did not greet and secure the connection in time',
          )
        }
        throw failure
      } finally {
        clearTimeout(deadline)
        conn.removeAllListeners('error')
        // A late socket error after we are done must not become an unhandled 'error' event.
        conn.on('error', () => {})
        stage === 'connect' ? conn.close() : conn.quit()
      }
    },
  }
}

/** The Message-ID header of a composed message. */
export function messageIdOf(raw: Buffer): string {
  const head = raw.subarray(0, Math.min(raw.length, 8192)).toString('latin1')
  return /^Message-ID:\s*(<[^>\r\n]+>)/im.exec(head)?.[1] ?? ''
}

/** A mailer for tests and development: keeps what it was given; can be told to fail the next sends. */
export class FakeMailer implements Mailer {
  readonly sent: Array<{ transportUrl: string; message: MailMessage }> = []
  private failures: MailerError[] = []

  failNext(reason: FailureReason, message = `fake ${reason}`): void {
    this.failures.push(new MailerError(reason, message))
  }

  async send(transportUrl: string, message: MailMessage): Promise<MailReceipt> {
    const failure = this.failures.shift()
    if (failure) throw failure
    this.sent.push({ transportUrl, message })
    return {
      messageId: `<fake-${this.sent.length}@mailer.test>`,
      accepted: [...message.to, ...message.cc, ...message.bcc],
    }
  }
}
