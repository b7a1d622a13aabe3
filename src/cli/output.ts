// What commands print: JSON records on stdout (one line with --json), one-line errors on stderr.
import type { Args } from './args'

export function print(args: Args, value: unknown): void {
  process.stdout.write((args.flags.has('json') ? JSON.stringify(value) : JSON.stringify(value, null, 2)) + '\n')
}
