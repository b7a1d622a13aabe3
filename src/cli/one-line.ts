// How a failed command or start-up reads to a person: one line, the reason, no stack and no minified source.
import { ConfigError } from '../config'
import { ApiError, InvalidRequest } from '../shared/errors'
import { UsageError } from './args'

/** Refusals a person can act on: exit status 1 like any refusal, 2 for a command line that cannot be read. */
export class CliRefusal extends Error {}

export function oneLine(e: unknown): string {
  if (e instanceof InvalidRequest)
    return Object.entries(e.errors)
      .map(([f, m]) => `${f}: ${m.join('; ')}`)
      .join('; ')
  if (e instanceof ApiError || e instanceof UsageError || e instanceof ConfigError || e instanceof CliRefusal)
    return e.message
  const err = e as { message?: unknown; code?: unknown } | null
  const msg = String(err?.message ?? e)
    .split('\n')[0]!
    .trim()
  // A native library that cannot be loaded (the database driver is unpacked into $TMPDIR at start).
  if (err?.code === 'ERR_DLOPEN_FAILED' || /dlopen/i.test(msg))
    return `cannot load the database driver (${msg.slice(0, 160)}); is $TMPDIR a writable folder?`
  return /SQLITE|LIBSQL/i.test(msg) ? `database error: ${msg}` : msg.slice(0, 300)
}

export function exitCodeOf(e: unknown): number {
  return e instanceof UsageError ? 2 : 1
}
