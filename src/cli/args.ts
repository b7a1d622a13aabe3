// A small argv reader: positional words and --name value / --flag options, nothing clever.

export interface Args {
  words: string[]
  options: Record<string, string>
  /** Every value of each option, in order, for options that may repeat (`--redirect-uri A --redirect-uri B`). */
  lists: Record<string, string[]>
  flags: Set<string>
}

/** Options that take no value. */
const FLAGS = new Set(['json', 'test', 'non-vat-payer', 'vat-payer', 'help', 'version', 'password-stdin', 'public'])

export class UsageError extends Error {}

export function parseArgs(argv: string[]): Args {
  const words: string[] = []
  const options: Record<string, string> = {}
  const lists: Record<string, string[]> = {}
  const flags = new Set<string>()
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    // The short forms people try first.
    if (a === '-h') {
      flags.add('help')
      continue
    }
    if (a === '-V' || a === '-v') {
      flags.add('version')
      continue
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=')
      const name = eq > 0 ? a.slice(2, eq) : a.slice(2)
      if (FLAGS.has(name) && eq < 0) {
        flags.add(name)
        continue
      }
      const value = eq > 0 ? a.slice(eq + 1) : argv[++i]
      if (value === undefined) throw new UsageError(`--${name} needs a value`)
      options[name] = value
      ;(lists[name] ??= []).push(value)
    } else words.push(a)
  }
  return { words, options, lists, flags }
}

/** Refuses options a command does not know, so a typo is never silently ignored. */
export function allowOnly(args: Args, allowed: string[]): void {
  const known = new Set([...allowed, 'db', 'json'])
  for (const name of [...Object.keys(args.options), ...args.flags]) {
    if (!known.has(name)) throw new UsageError(`unknown option --${name}`)
  }
}

/** `--port`, else the configured port; 0 asks the system for a free one. Judged before anything is done. */
export function portOption(args: Args, fallback: number): number {
  const port = args.options.port !== undefined ? Number(args.options.port) : fallback
  if (args.options.port?.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError('--port must be a port number (0 to 65535)')
  return port
}

/** `--host`, else the configured host (HOST, default 127.0.0.1): the address the server listens on. */
export function hostOption(args: Args, fallback: string): string {
  const host = args.options.host?.trim() ?? fallback
  if (!host || /[\s/]/.test(host))
    throw new UsageError('--host must be an address to listen on, such as 127.0.0.1 or 0.0.0.0')
  return host
}
