// `invoicing mail set|clear`: a Business's own SMTP mailbox; what it prints never holds the server URL or password.
import type { Deps } from '../deps'
import { getBusiness, presentBusiness, resolveBusiness } from '../modules/business'
import { businessMailProvider, clearMailbox, setMailbox } from '../modules/mail'
import { allowOnly, UsageError, type Args } from './args'
import { print } from './output'

const USAGE = 'usage: invoicing mail set BUSINESS_ID --smtp smtp://user:password@host:port --from ADDRESS | invoicing mail clear BUSINESS_ID'

export async function mailCommand(deps: Deps, args: Args): Promise<void> {
  const [, sub, ref] = args.words
  if (sub === 'set') {
    allowOnly(args, ['smtp', 'from'])
    if (!ref || args.options.smtp === undefined || args.options.from === undefined) throw new UsageError(USAGE)
    const b = await resolveBusiness(deps.db.read, ref)
    await setMailbox(deps.db, deps.clock, b.id, { kind: 'smtp', smtpUrl: args.options.smtp, from: args.options.from })
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

/** The Business's mail provider as GET /v1/business answers it, after the change. */
async function printProvider(deps: Deps, args: Args, businessId: number): Promise<void> {
  const b = await getBusiness(deps.db.read, businessId)
  const view = presentBusiness(b, await businessMailProvider(deps.db.read, b, deps.config.mailRelay))
  print(args, { business_id: view.business_id, mail_provider: view.mail_provider })
}
