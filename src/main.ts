// The `invoicing` executable: reads the command line and dispatches to cli/; `serve` is the default.
import { loadConfig, ConfigError } from './config'
import { createDeps } from './deps'
import { ApiError, InvalidRequest } from './shared/errors'
import { parseArgs, UsageError, allowOnly, portOption } from './cli/args'
import { businessCommand, bankAccountCommand, numberingCommand } from './cli/business'
import { keyCommand } from './cli/key'
import { memberCommand, personCommand } from './cli/person'
import { mailCommand } from './cli/mail'
import { webhookCommand } from './cli/webhook'
import { sandbox } from './cli/sandbox'
import { serveForever } from './cli/serve'

const HELP = `invoicing: self-hosted invoicing API

  invoicing serve [--port 8080] [--db FILE_OR_URL]
  invoicing sandbox [--port 8080]
  invoicing migrate [--db FILE_OR_URL]
  invoicing business create --name N --country CC --currency CUR [--legal-name] [--vat-number] [--company-id]
                            [--non-vat-payer] [--email] [--address --city --postal-code] [--plan free|pro|pro_plus|paused] [--test]
                            [--owner EMAIL]
  invoicing business update BUSINESS_ID [same options]
  invoicing business delete BUSINESS_ID   (keys, sessions and apps stop at once; records stay in the file)
  invoicing person add --email E --name N   (prints a one-time sign-in link, 30 minutes)
  invoicing person link --email E           (a new one-time sign-in link)
  invoicing member add BUSINESS_ID --email E --role owner|admin|member|viewer
  invoicing member list BUSINESS_ID | invoicing member remove BUSINESS_ID --email E
  invoicing key create BUSINESS_ID --role admin|member|viewer --name NAME
  invoicing key list BUSINESS_ID | invoicing key revoke KEY_ID
  invoicing bank-account add BUSINESS_ID --name N --iban I [--bic B] [--currency CUR]
  invoicing mail set BUSINESS_ID --smtp smtp://user:password@host:port --from ADDRESS   (smtps:// for TLS from the start)
  invoicing mail clear BUSINESS_ID
  invoicing webhook add BUSINESS_ID --url U [--events a,b] | list BUSINESS_ID | roll|delete BUSINESS_ID WEBHOOK_ID
  invoicing numbering set BUSINESS_ID --kind invoice|proforma|credit_note|quote|receipt|client --pattern P

Every command takes --db (default: $INVOICING_DB, else ./invoicing.db) and --json.`

/** One line for a person: the error's message and, for field errors, each field's reason. */
function oneLine(e: unknown): string {
  if (e instanceof InvalidRequest) return Object.entries(e.errors).map(([f, m]) => `${f}: ${m.join('; ')}`).join('; ')
  if (e instanceof ApiError) return e.message
  if (e instanceof UsageError || e instanceof ConfigError) return e.message
  const msg = (e as Error)?.message ?? String(e)
  return /SQLITE|LIBSQL/i.test(msg) ? `database error: ${msg.split('\n')[0]}` : msg.split('\n')[0]!
}

async function main(argv: string[]): Promise<void> {
  const args = parseArgs(argv)
  const command = args.words[0] ?? 'serve'
  if (command === 'help' || args.flags.has('help')) {
    process.stdout.write(HELP + '\n')
    return
  }
  const overrides = args.options.db ? { dbPath: args.options.db } : {}
  const config = loadConfig(process.env, overrides)
  if (command === 'sandbox') {
    allowOnly(args, ['port'])
    return sandbox(config, args, portOption(args, config.port))
  }
  if (command === 'serve') {
    allowOnly(args, ['port'])
    const port = portOption(args, config.port)
    await serveForever(await createDeps(config), port)
    return
  }
  const deps = await createDeps(config)
  try {
    switch (command) {
      case 'migrate':
        allowOnly(args, [])
        // createDeps already applied every pending migration.
        process.stdout.write(args.flags.has('json') ? JSON.stringify({ migrated: true, db: config.dbPath }) + '\n' : `migrated ${config.dbPath}\n`)
        return
      case 'business':
        return await businessCommand(deps, args)
      case 'key':
        return await keyCommand(deps, args)
      case 'person':
        return await personCommand(deps, args)
      case 'member':
        return await memberCommand(deps, args)
      case 'bank-account':
        return await bankAccountCommand(deps, args)
      case 'mail':
        return await mailCommand(deps, args)
      case 'numbering':
        return await numberingCommand(deps, args)
      case 'webhook':
        return await webhookCommand(deps, args)
      default:
        throw new UsageError(`unknown command "${command}"; run invoicing help`)
    }
  } finally {
    deps.db.close()
  }
}

main(process.argv.slice(2)).catch((e) => {
  process.stderr.write(`invoicing: ${oneLine(e)}\n`)
  process.exit(e instanceof UsageError ? 2 : 1)
})
