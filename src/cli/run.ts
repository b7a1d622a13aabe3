// Reads the command line and runs the command the table names (`serve` when none is named); help and version here.
import { existsSync } from 'node:fs'
import { loadConfig } from '../config'
import { createDeps, type Deps } from '../deps'
import { parseArgs, UsageError } from './args'
import { COMMANDS, findCommand } from './commands'
import { commandHelp, overallHelp, VERSION } from './help'
import { CliRefusal } from './one-line'

/**
 * The local file a --db value names, or null for a remote libSQL URL or an in-memory database (which are never
 * "missing" in this sense).
 */
function localDatabaseFile(dbPath: string): string | null {
  if (dbPath === ':memory:' || dbPath.startsWith('file::memory:')) return null
  if (/^(libsql|http|https|ws|wss):/.test(dbPath)) return null
  return dbPath.startsWith('file:') ? dbPath.slice('file:'.length).split('?')[0]! : dbPath
}

export async function runCli(argv: string[]): Promise<void> {
  const args = parseArgs(argv)
  if (args.flags.has('version')) {
    process.stdout.write(`invoicing ${VERSION}\n`)
    return
  }
  const name = args.words[0]
  if (name === 'help') {
    const about = args.words[1]
    const c = about ? findCommand(about) : undefined
    if (about && !c) throw new UsageError(`unknown command "${about}"; run invoicing --help`)
    process.stdout.write((c ? commandHelp(c) : overallHelp(COMMANDS)) + '\n')
    return
  }
  if (name === undefined && args.flags.has('help')) {
    process.stdout.write(overallHelp(COMMANDS) + '\n')
    return
  }
  // Judged before anything is read or written: an unknown command creates no file.
  const command = findCommand(name ?? 'serve')
  if (!command) throw new UsageError(`unknown command "${name}"; run invoicing --help`)
  if (args.flags.has('help')) {
    process.stdout.write(commandHelp(command) + '\n')
    return
  }
  const config = loadConfig(process.env, args.options.db !== undefined ? { dbPath: args.options.db } : {})
  const use = typeof command.database === 'function' ? command.database(args) : command.database
  if (use === 'existing') {
    const file = localDatabaseFile(config.dbPath)
    if (file !== null && !existsSync(file)) {
      throw new CliRefusal(
        `no database at ${config.dbPath}; create one with "invoicing migrate --db ${config.dbPath}" or "invoicing business create", or name yours with --db`,
      )
    }
  }
  let deps: Deps | null = null
  const open = async () => (deps ??= await createDeps(config))
  try {
    await command.run({ config, args, open })
  } finally {
    if (deps && !command.serves) {
      // A passive checkpoint (never waits for a server's readers) so that the file alone tends to hold the change.
      await (deps as Deps).db.checkpoint('PASSIVE').catch(() => undefined)
      ;(deps as Deps).db.close()
    }
  }
}
