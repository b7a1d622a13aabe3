// The table of CLI commands: `invoicing --help`, `invoicing COMMAND --help` and dispatch all read it. A new command is
// one entry here (name, summary, usage, how it uses the database, run) and its own file beside this one.
import { bankAccountCommand, businessCommand, numberingCommand } from './business'
import type { Command } from './command'
import { keyCommand } from './key'
import { memberCommand, personCommand } from './person'
import { mailCommand } from './mail'
import { mcpStdio } from './mcp'
import { allowOnly, hostOption, portOption } from './args'
import { publicUrlOf } from '../config'
import { sandbox } from './sandbox'
import { serveForever } from './serve'
import { webhookCommand } from './webhook'
import { backupCommand } from './backup'
import { appCommand, APP_USAGE } from './app'
import { secretsCommand, SECRETS_USAGE } from './secrets'
import { importCommand, IMPORT_USAGE } from './import'
import { bankStatementCommand, BANK_STATEMENT_USAGE } from './bank-statement'
import { remindersCommand, REMINDERS_USAGE } from './reminders'
import { fxCommand } from './fx'
import { journalCommand, JOURNAL_USAGE } from './journal'

export const COMMANDS: Command[] = [
  {
    name: 'serve',
    summary: 'serve the API (the default with no command); migrates the database first',
    usage: ['serve [--port 8080] [--host 127.0.0.1] [--db FILE_OR_URL] [--public-url URL]'],
    details: [
      'Every link it gives (OAuth issuer and metadata, sign-in links, remedy_url, public_url) names the address it',
      'prints at start, unless --public-url (or $INVOICING_PUBLIC_URL) names another (behind a reverse proxy).',
      'Listens on 127.0.0.1 unless --host (or $HOST) says otherwise; 0.0.0.0 listens on every interface.',
      'The port is --port, else $PORT, else 8080. Stop with Ctrl+C (SIGINT) or SIGTERM.',
      'Environment: INVOICING_DB, INVOICING_MAIL_RELAY, INVOICING_PUBLIC_URL, INVOICING_VIES_URL,',
      'INVOICING_LOG=requests (one JSON line per request), INVOICING_LOG_LEVEL=info|error,',
      'INVOICING_TRUSTED_PROXIES (reverse proxies whose X-Forwarded-For names the client).',
      "INVOICING_SMTP_ALLOW_PRIVATE=1 lets a Business's own mailbox name a loopback or private mail server;",
      'INVOICING_SMTP_ALLOW_PLAIN_LOGIN=1 lets it log in without TLS (neither applies to INVOICING_MAIL_RELAY).',
      'Starts again at once (same process) under BUN_JSC_heapGrowthMaxIncrease=0.6 and BUN_JSC_useFTLJIT=false,',
      'which bound its memory; a value set in the environment is kept.',
    ],
    database: 'creates',
    serves: true,
    async run({ config, args, open }) {
      allowOnly(args, ['port', 'host', 'public-url'])
      const port = portOption(args, config.port)
      const host = hostOption(args, config.host)
      config.publicUrl = publicUrlOf(args.options['public-url'], '--public-url') ?? config.publicUrl
      await serveForever(await open(), port, host, { announce: true })
    },
  },
  {
    name: 'sandbox',
    summary: 'a throwaway Test business with sample data and an Admin key, served until stopped',
    usage: ['sandbox [--port 8080] [--host 127.0.0.1] [--public-url URL]'],
    details: [
      'Its database lives in a temporary folder, removed when the sandbox stops; --db is not read.',
      "Links (sign-in, OAuth, the Client's pages) name the address it prints, or --public-url when given.",
    ],
    database: 'none',
    serves: true,
    async run({ config, args }) {
      allowOnly(args, ['port', 'host', 'public-url'])
      const publicUrl = publicUrlOf(args.options['public-url'], '--public-url') ?? config.publicUrl
      await sandbox({ ...config, publicUrl }, args, portOption(args, config.port), hostOption(args, config.host))
    },
  },
  {
    name: 'mcp',
    summary: 'serve the MCP tools over stdio for a local assistant, acting with one API key',
    usage: ['mcp --key KEY [--db FILE_OR_URL]'],
    details: ['The same tools, rules and answers as /mcp (extensions §11); standard output carries only the protocol.'],
    database: 'existing',
    serves: true,
    run: async ({ args, open }) => mcpStdio(await open(), args),
  },
  {
    name: 'migrate',
    summary: 'create the database or apply pending migrations (serve does it too, on start)',
    usage: ['migrate [--db FILE_OR_URL]'],
    database: 'creates',
    async run({ config, args, open }) {
      allowOnly(args, [])
      // Opening the database applies every pending migration.
      await open()
      process.stdout.write(
        args.flags.has('json')
          ? JSON.stringify({ migrated: true, db: config.dbPath }) + '\n'
          : `migrated ${config.dbPath}\n`,
      )
    },
  },
  {
    name: 'business',
    summary: 'create a Business or change its setup, plan and branding',
    usage: [
      'business create --name N --country CC --currency CUR [--legal-name L] [--vat-number V] [--company-id C] [--non-vat-payer]',
      '                [--email E] [--address A --city C --postal-code P] [--plan free|pro|pro_plus|paused] [--test]',
      '                [--owner EMAIL] [--language en|de|fr|es|it|nl|pl|pt]',
      'business update BUSINESS_ID [same options] [--vat-payer] [--logo FILE.png|FILE.jpg] [--brand-color #RRGGBB]',
      'e-invoices: [--electronic-address SCHEME:VALUE] [--contact-name N] [--contact-phone P] [--contact-email E]',
      '            [--tax-registration-id T] [--einvoice-format ubl|cii|xrechnung-ubl|xrechnung-cii|peppol|facturx]',
      'business delete BUSINESS_ID',
    ],
    details: [
      'BUSINESS_ID is the numeric id `business create` prints, or the business_id UUID.',
      'An option given blank (--email "") clears it; --logo "" removes the logo. A logo is a PNG or JPEG of at most 1 MB.',
      'Issued documents keep the seller as it stood at issue; a change shows on Drafts and documents issued after it.',
      '--language: of its documents and emails where a Client names none (default en).',
      "--owner makes a person (added with `person add`) the new Business's Owner.",
      'delete: its API keys, sessions and Connected apps stop at once and nothing more is sent about it; its records stay',
      'in the file (legal retention).',
    ],
    database: (args) => (args.words[1] === 'create' ? 'creates' : 'existing'),
    run: async ({ args, open }) => businessCommand(await open(), args),
  },
  {
    name: 'person',
    summary: 'add a person who signs in to the application, give them a new one-time sign-in link, or delete them',
    usage: [
      'person add --email E --name N [--public-url URL]',
      'person link --email E [--public-url URL]',
      'person delete --email E',
    ],
    details: [
      'Prints the person with `sign_in_link`: one use, 30 minutes, to choose a password (at least 10 characters).',
      '`person link` is the forgotten-password way back. Links start with --public-url, else $INVOICING_PUBLIC_URL, else',
      'the address `serve` prints with the same $HOST and $PORT (http://127.0.0.1:8080 by default).',
      '`person delete` (refused while they are the last Owner of a Business) ends every app they connected and deletes the OAuth apps they own, with their webhooks.',
    ],
    database: 'creates',
    run: async ({ args, open }) => personCommand(await open(), args),
  },
  {
    name: 'member',
    summary: 'add, list or remove the people of a Business and their Roles',
    usage: [
      'member add BUSINESS_ID --email E --role owner|admin|member|viewer',
      'member list BUSINESS_ID',
      'member remove BUSINESS_ID --email E',
    ],
    details: [
      'add also changes the Role of a member. A Business keeps at least one Owner: removing or demoting the last is refused.',
    ],
    database: 'existing',
    run: async ({ args, open }) => memberCommand(await open(), args),
  },
  {
    name: 'key',
    summary: 'create, list or revoke API keys (a key is shown only when created)',
    usage: [
      'key create BUSINESS_ID --role admin|member|viewer --name NAME',
      'key list BUSINESS_ID',
      'key revoke KEY_ID',
    ],
    database: 'existing',
    run: async ({ args, open }) => keyCommand(await open(), args),
  },
  {
    name: 'bank-account',
    summary: 'add a bank account to a Business (shown on its documents)',
    usage: ['bank-account add BUSINESS_ID --name N --iban I [--bic B] [--currency CUR]'],
    details: ['The IBAN must pass its country format and checksum; the BIC, when given, must be a well-formed BIC.'],
    database: 'existing',
    run: async ({ args, open }) => bankAccountCommand(await open(), args),
  },
  {
    name: 'mail',
    summary: "set or clear the Business's own SMTP mailbox",
    usage: [
      'mail set BUSINESS_ID --smtp smtp://user@host:port --from ADDRESS [--password-file FILE | --password-stdin]   (smtps:// for TLS from the start)',
      'mail clear BUSINESS_ID',
    ],
    details: [
      'The password is read from FILE or standard input (one trailing line break dropped), never from the command line,',
      'and stored encrypted under the secret key (INVOICING_SECRET_KEY, or FILE.key beside the database).',
    ],
    database: 'existing',
    run: async ({ args, open }) => mailCommand(await open(), args),
  },
  {
    name: 'reminders',
    summary: "show or set a Business's payment reminders, or send the reminder steps due now",
    usage: REMINDERS_USAGE,
    details: [
      'Steps are days from the due date (-30 to 365, at most 5); a step kept keeps its subject and message.',
      'The server sends due steps every minute; `run` does it once, as the server would.',
    ],
    database: 'existing',
    run: async ({ args, open }) => remindersCommand(await open(), args),
  },
  {
    name: 'fx',
    summary: 'load the ECB euro reference rates from a file, or fetch them now (extensions §16)',
    usage: ['fx import FILE   (an ECB XML file: the daily one or a history)', 'fx fetch'],
    details: [
      "Documents in another currency than the Business's take the rate of their issue date at issue. serve checks hourly",
      "and fetches INVOICING_FX_URL (default the ECB's daily file; its 90-day history while none is held) from 16:05 UTC;",
      'on a machine without internet, import a file downloaded elsewhere. A malformed file changes nothing.',
      'INVOICING_FX_ALLOW_PRIVATE=1 lets INVOICING_FX_URL be http:// or name a loopback or private host (a mirror).',
    ],
    database: 'existing',
    run: async ({ args, open }) => fxCommand(await open(), args),
  },
  {
    name: 'webhook',
    summary: 'add, list, roll the secret of, or delete webhooks',
    usage: [
      'webhook add BUSINESS_ID --url U [--events a,b]',
      'webhook list BUSINESS_ID',
      'webhook roll BUSINESS_ID WEBHOOK_ID',
      'webhook delete BUSINESS_ID WEBHOOK_ID',
    ],
    database: 'existing',
    run: async ({ args, open }) => webhookCommand(await open(), args),
  },
  {
    name: 'app',
    summary: 'register an OAuth app for a person, or set its webhook (it hears every Business the app is connected to)',
    usage: APP_USAGE,
    details: [
      'create prints {client_id, client_secret}: the secret is shown only here (none for a --public client, which uses PKCE alone).',
      'Redirect URIs are https://, or http:// on a loopback address, and are matched exactly.',
      'webhook set shows the signing secret only here; setting it again replaces its address, events and secret.',
    ],
    database: 'existing',
    run: async ({ args, open }) => appCommand(await open(), args),
  },
  {
    name: 'import',
    summary: 'create Clients or Products from a CSV file: every row, or none',
    usage: [IMPORT_USAGE],
    details: [
      "The file's header row names fields of the create body (POST /v1/clients or /v1/products; electronic_address.scheme",
      'and electronic_address.value for the nested one); comma or semicolon separated, UTF-8, at most 10,000 rows and 10 MB.',
      'Any refused row refuses the whole file, named as rows.N.field (N counted from 1 after the header); nothing is created.',
      'Prints {created, ids}.',
    ],
    database: 'existing',
    run: async ({ args, open }) => importCommand(await open(), args),
  },
  {
    name: 'numbering',
    summary: 'set the numbering pattern of a kind of document, Receipt or Client code',
    usage: ['numbering set BUSINESS_ID --kind invoice|proforma|credit_note|quote|receipt|client --pattern P'],
    details: ['A pattern is literal text with one counter {N…} and optional {YYYY}, e.g. INV-{YYYY}-{NNNN}.'],
    database: 'existing',
    run: async ({ args, open }) => numberingCommand(await open(), args),
  },
  {
    name: 'backup',
    summary: 'write a consistent, checked copy of the live database (the server keeps serving)',
    usage: ['backup OUT_FILE [--db FILE]'],
    details: [
      'The copy is taken from one snapshot while servers run and write, passes integrity_check, and is made 0600;',
      'an existing OUT_FILE is never overwritten. To restore, stop every process and copy the backup over the database file.',
      'Keep the secret key too (INVOICING_SECRET_KEY, or the FILE.key beside the database): the copy holds webhook',
      'secrets and mailbox passwords encrypted under it.',
    ],
    database: 'existing',
    run: async ({ args, open }) => backupCommand(await open(), args),
  },
  {
    name: 'secrets',
    summary: 'when the secret key is lost: a new key, the sealed secrets dropped, every record kept',
    usage: SECRETS_USAGE,
    details: [
      'For a database whose key (FILE.key or INVOICING_SECRET_KEY) is missing or wrong, which refuses to start. Makes a',
      'new key (a new FILE.key, the old file kept beside it as FILE.key.old-TIME; or, when INVOICING_SECRET_KEY is set,',
      'that key) and drops every value sealed under the old one: each webhook keeps its address and events and is',
      'paused with the reason "signing secret lost: roll it"; each mailbox loses its server and password, so Sends',
      'answer no_mail_provider until it is set again; each OAuth app webhook is paused likewise (set it again).',
      'Prints what it dropped. Refused while the key at hand opens the database: then nothing is lost.',
    ],
    // A wrong subcommand is told before the database is looked for.
    database: (args) => (args.words[1] === 'forget' ? 'existing' : 'none'),
    // Opens the database itself: the usual opening checks the key, which is what is lost.
    run: ({ config, args }) => secretsCommand(config, args),
  },
  {
    name: 'bank-statement',
    summary:
      "import a bank statement (CAMT.053 or CAMT.054): matched credits record Payments on the Business's documents",
    usage: [BANK_STATEMENT_USAGE],
    details: [
      'FILE is an ISO 20022 CAMT.053 statement or CAMT.054 notification, versions 001.02 to 001.08, at most 10 MB, of one',
      "of the Business's bank accounts (by its IBAN). Each booked credit naming an issued document by its payment",
      'reference or number records a Payment as `POST /v1/documents/{id}/payments` would; entries already imported are',
      'duplicates and record nothing. Prints the statement with every entry and its status.',
    ],
    database: 'existing',
    run: async ({ args, open }) => bankStatementCommand(await open(), args),
  },
  {
    name: 'journal',
    summary: "verify each Business's journal (the hash chain of issued records), or export one as JSON Lines",
    usage: JOURNAL_USAGE,
    details: [
      "verify: every chain (or one Business's) recomputed and compared with the records as they stand; exit 0 when all",
      'hold, else 1 and one line naming the Business, the first bad seq and why. export: one entry a line, checkable',
      'without the service (docs/journal.md); a new FILE only.',
    ],
    database: 'existing',
    run: async ({ args, open }) => journalCommand(await open(), args),
  },
]

export function findCommand(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name)
}
