// Help text built from the command table: the whole list for `invoicing --help`, one command for `invoicing X --help`.
import { version } from '../../package.json'
import type { Command } from './command'

export const VERSION: string = version

const COMMON =
  'Every command but sandbox takes --db FILE_OR_URL (default: $INVOICING_DB, else ./invoicing.db) and --json.'

/** A usage line after "invoicing "; a line that starts with spaces continues the one before it. */
const usageLine = (u: string) => (u.startsWith(' ') ? `          ${u}` : `  invoicing ${u}`)

export function overallHelp(commands: Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2
  return [
    `invoicing ${VERSION}: self-hosted invoicing API`,
    '',
    'Usage:',
    ...commands.flatMap((c) => c.usage.map(usageLine)),
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    COMMON,
    'Run "invoicing COMMAND --help" for one command; "invoicing --version" prints the version.',
  ].join('\n')
}

export function commandHelp(c: Command): string {
  return [
    `invoicing ${c.name}: ${c.summary}`,
    '',
    'Usage:',
    ...c.usage.map(usageLine),
    ...(c.details?.length ? ['', ...c.details] : []),
    '',
    COMMON,
  ].join('\n')
}
