// `invoicing mail set|clear`: a Business's own SMTP mailbox; what it prints never holds the server URL or password.
// The password never comes on the command line (it would show in the process list and the shell's history): it is
// read from a file or from standard input.
import { readFileSync } from 'node:fs'
import type { Deps } from '../deps'
import { getBusiness, presentBusiness, resolveBusiness } from '../modules/business'
import { businessMailProvider, clearMailbox, setMailbox } from '../modules/mailbox'
import { allowOnly, UsageError, type Args } from './args'
import { CliRefusal } from './one-line'
import { print } from './output'

const USAGE =
  'usage: invoicing mail set BUSINESS_ID --smtp smtp://user@host:port --from ADDRESS [--password-file FILE | --password-stdin] | invoicing mail clear BUSINESS_ID'

export async function mailCommand(deps: Deps, args: Args): Promise<void> {
  const [, sub, ref] = args.words
  if (sub === 'set') {
    allowOnly(args, ['smtp', 'from', 'password-file', 'password-stdin'])
    if (!ref || args.options.smtp === undefined || args.options.from === undefined) throw new UsageError(USAGE)
    const smtpUrl = withPassword(args.options.smtp, await password(args))
    const b = await resolveBusiness(deps.db.read, ref)
    await setMailbox(
      deps.db,
      deps.clock,
      b.id,
      { kind: 'smtp', smtpUrl, from: args.options.from },
      { allowPrivate: deps.config.smtpAllowPrivate },
    )
    return printProvider(deps, args, b.id)
  }
  if (sub === 'clear') {
    allowOnly(args, [])
    if (!ref) throw new UsageError(USAGE)
    const b = await resolveBusiness(deps.db.read, ref)
    await clearMailbox(deps.db, b.id)
    return printProvider(deps, args, b.id)
  }
  throw new UsageError(USAGE)
}

/** The password from --password-file or standard input (one trailing line break dropped); null when neither is given. */
async function password(args: Args): Promise<string | null> {
  const file = args.options['password-file']
  const stdin = args.flags.has('password-stdin')
  if (file !== undefined && stdin)
    throw new UsageError('give the password with --password-file or --password-stdin, not both')
  let text: string
  if (file !== undefined) {
    try {
      text = readFileSync(file, 'utf8')
    } catch {
      throw new CliRefusal(`cannot read the password file ${file}`)
    }
  } else if (stdin) text = await Bun.stdin.text()
  else return null
  const pw = text.replace(/\r?\n$/, '')
  if (pw === '') throw new CliRefusal('the password given is empty')
  return pw
}

/** The mailbox URL with the password put in (URL-encoded); a password written into --smtp itself is refused. */
function withPassword(smtp: string, pw: string | null): string {
  const m = /^(smtps?:\/\/)([^@/?#]*)@(.*)$/i.exec(smtp.trim())
  const userInfo = m?.[2] ?? ''
  if (userInfo.includes(':')) {
    throw new UsageError(
      '--smtp must not hold the password (the command line shows in the process list and shell history): give smtp://user@host:port and the password with --password-file FILE or --password-stdin',
    )
  }
  if (pw === null) return smtp
  if (!m || userInfo === '')
    throw new UsageError('--smtp must name the user the password belongs to: smtp://user@host:port')
  return `${m[1]}${userInfo}:${encodeURIComponent(pw)}@${m[3]}`
}

/** The Business's mail provider as GET /v1/business answers it, after the change. */
async function printProvider(deps: Deps, args: Args, businessId: number): Promise<void> {
  const b = await getBusiness(deps.db.read, businessId)
  const view = presentBusiness(b, await businessMailProvider(deps.db.read, b, deps.config.mailRelay))
  print(args, { business_id: view.business_id, mail_provider: view.mail_provider })
}
