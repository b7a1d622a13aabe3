// One-line JSON logs on stderr; callers pass facts, never request bodies, keys or stack traces.

export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
}

export function createLogger(out: (line: string) => void = (l) => process.stderr.write(l + '\n')): Logger {
  const log = (level: string) => (msg: string, fields: Record<string, unknown> = {}) =>
    out(JSON.stringify({ at: new Date().toISOString(), level, msg, ...fields }))
  return { info: log('info'), error: log('error') }
}

export const silentLogger: Logger = { info() {}, error() {} }
