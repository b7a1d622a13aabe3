// One-line JSON logs on stderr; callers pass facts, never request bodies, keys or stack traces.

export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
}

/** `level` error keeps errors only (INVOICING_LOG_LEVEL); info, the default, also start, shutdown and request lines. */
export function createLogger(
  out: (line: string) => void = (l) => process.stderr.write(l + '\n'),
  level: 'info' | 'error' = 'info',
): Logger {
  const log =
    (level: string) =>
    (msg: string, fields: Record<string, unknown> = {}) =>
      out(JSON.stringify({ at: new Date().toISOString(), level, msg, ...fields }))
  return { info: level === 'error' ? () => {} : log('info'), error: log('error') }
}

export const silentLogger: Logger = { info() {}, error() {} }

/**
 * What of an error may be logged: its name, a driver code, and its message cut before any bound values. drizzle's
 * query errors read "Failed query: … params: …", and the values can be a delivery body or a Client's details.
 */
export function errorFacts(e: unknown): { name: string; code?: string; message: string } {
  const err = e as { name?: unknown; message?: unknown; code?: unknown; cause?: { code?: unknown } } | null
  const message = typeof e === 'string' ? e : String(err?.message ?? '')
  const cut = message.search(/\bparams:/)
  const code = err?.code ?? err?.cause?.code
  return {
    name: String(err?.name ?? 'unknown'),
    ...(typeof code === 'string' ? { code } : {}),
    message: (cut >= 0 ? message.slice(0, cut) : message).slice(0, 300).trim(),
  }
}
