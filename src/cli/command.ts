// What one CLI command declares: its name, one-line summary, usage lines and help, whether it may create the database,
// and the function that runs it. The table in commands.ts lists them; help and dispatch are built from it.
import type { Config } from '../config'
import type { Deps } from '../deps'
import type { Args } from './args'

export interface CommandContext {
  config: Config
  args: Args
  /** Opens the database (migrating it) once; closed by the runner when `run` returns, unless the command serves. */
  open(): Promise<Deps>
}

/**
 * - `existing`: the command works on a database that must already exist; a --db naming no file is refused
 *   ("no database at PATH") before anything is written, so a typo never leaves an empty database behind.
 * - `creates`: the command may create the database (serve, migrate, business create).
 * - `none`: the command opens no --db database (sandbox makes its own, help and version open nothing).
 */
export type DatabaseUse = 'existing' | 'creates' | 'none'

export interface Command {
  name: string
  /** One line in the command list of `invoicing --help`. */
  summary: string
  /** Usage lines, each after "invoicing ". */
  usage: string[]
  /** Further lines shown by `invoicing NAME --help`. */
  details?: string[]
  /** How the command uses the --db database; a function when it depends on the subcommand. */
  database: DatabaseUse | ((args: Args) => DatabaseUse)
  /** The command keeps serving after `run` returns: the database stays open. */
  serves?: boolean
  run(ctx: CommandContext): Promise<void>
}
