// The only reader of process.env: typed settings with safe defaults, refused early when malformed.
import { parseProxyRange } from './platform/client-address'

export interface Config {
  port: number
  /** The address the server listens on: HOST, default 127.0.0.1 (only this machine); the Docker image sets 0.0.0.0. */
  host: string
  /** INVOICING_LOG=requests: one JSON line per request on stderr. */
  logRequests: boolean
  /** INVOICING_LOG_LEVEL: `info` (default) logs start, shutdown and errors; `error` only errors. */
  logLevel: 'info' | 'error'
  dbPath: string
  mailRelay: string | null
  viesUrl: string
  webhookAllowPrivate: boolean
  /**
   * INVOICING_SMTP_ALLOW_PRIVATE=1: a Business's own mailbox may name a loopback or private mail server (a relay on
   * this machine or network). Unset, a tenant's SMTP host must be on the public internet, at save and at connect.
   * The service's own relay (INVOICING_MAIL_RELAY) is the operator's and never judged by this.
   */
  smtpAllowPrivate: boolean
  /**
   * INVOICING_SMTP_ALLOW_PLAIN_LOGIN=1: a Business's mailbox may log in over a connection without TLS (a local relay
   * that offers no STARTTLS). Unset, smtp:// must upgrade with STARTTLS before anything, login included, is sent.
   */
  smtpAllowPlainLogin: boolean
  /** Requests per minute per key; the contract's 120. Raised only for load benchmarks. */
  rateLimit: number
  /**
   * INVOICING_PUBLIC_URL (or the CLI's --public-url): where people and Clients reach this service (e.g.
   * https://invoices.example.com). Unset, links name the address the server prints (see publicBaseUrl).
   */
  publicUrl: string | null
  /** How long a request body may stall and take in all (src/platform/request-body.ts); set only by tests. */
  bodyLimits?: { idleMs: number; totalMs: number }
  /**
   * INVOICING_SECRET_KEY: the key webhook secrets and mailbox SMTP URLs are sealed under (32 bytes: 64 hex digits or
   * base64). Unset: the key file beside a local database (created 0600 on first start); a libSQL server needs it set.
   */
  secretKey: string | null
  /** INVOICING_DB_AUTH_TOKEN: the token of a libSQL server named by INVOICING_DB. */
  dbAuthToken: string | null
  /**
   * INVOICING_TRUSTED_PROXIES: the reverse proxies (addresses or CIDR ranges, comma-separated) whose X-Forwarded-For
   * names the client (src/platform/client-address.ts). Empty: the connection's peer is the client.
   */
  trustedProxies: string[]
  /**
   * INVOICING_TEST_HOLD_COMMIT_MS, honoured only under NODE_ENV=test: each keyed change's transaction stays open this
   * long before it commits (db/commit-marker.ts), so the crash tests can kill a server with keys surely in flight.
   */
  testHoldCommitMs?: number
  /** INVOICING_FX_URL: the ECB reference rates XML fetched daily (extensions §16); default the ECB's daily file. */
  fxUrl: string
  /** INVOICING_FX_ALLOW_PRIVATE=1: INVOICING_FX_URL may be http:// or name a loopback or private host (tests, a mirror). */
  fxAllowPrivate: boolean
  /**
   * INVOICING_TEST_NOW (an ISO timestamp), honoured only under NODE_ENV=test: the server's clock starts there and runs
   * on, so the process tests of recurring invoices can stop a server and start it again days later.
   */
  testNow?: string | null
}

/** The ECB's daily euro reference rates (modules/fx keeps the same address; config.ts imports no module). */
const ECB_DAILY_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml'
const DEFAULT_VIES_URL = 'https://ec.europa.eu/taxation_customs/vies/rest-api/check-vat-number'

export class ConfigError extends Error {}

export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<Config> = {},
): Config {
  const port = env.PORT ? Number(env.PORT) : 8080
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`PORT must be a port number, not "${env.PORT}"`)
  const host = env.HOST?.trim() || '127.0.0.1'
  if (/[\s/]/.test(host))
    throw new ConfigError(`HOST must be an address to listen on, such as 127.0.0.1 or 0.0.0.0, not "${env.HOST}"`)
  const log = env.INVOICING_LOG?.trim() ?? ''
  if (log !== '' && log !== 'requests')
    throw new ConfigError(`INVOICING_LOG must be "requests" or unset, not "${env.INVOICING_LOG}"`)
  const logLevel = env.INVOICING_LOG_LEVEL?.trim().toLowerCase() || 'info'
  if (logLevel !== 'info' && logLevel !== 'error')
    throw new ConfigError(`INVOICING_LOG_LEVEL must be info or error, not "${env.INVOICING_LOG_LEVEL}"`)
  const mailRelay = env.INVOICING_MAIL_RELAY?.trim() || null
  if (mailRelay && !/^smtps?:\/\//.test(mailRelay))
    throw new ConfigError('INVOICING_MAIL_RELAY must be an smtp:// or smtps:// URL')
  const viesUrl = env.INVOICING_VIES_URL?.trim() || DEFAULT_VIES_URL
  if (!/^https?:\/\//.test(viesUrl)) throw new ConfigError('INVOICING_VIES_URL must be an http(s) URL')
  const rateLimit = env.INVOICING_RATE_LIMIT ? Number(env.INVOICING_RATE_LIMIT) : 120
  if (!Number.isInteger(rateLimit) || rateLimit < 1)
    throw new ConfigError('INVOICING_RATE_LIMIT must be a whole number above 0')
  const publicUrl = publicUrlOf(env.INVOICING_PUBLIC_URL, 'INVOICING_PUBLIC_URL')
  const trustedProxies = (env.INVOICING_TRUSTED_PROXIES ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')
  const notProxy = trustedProxies.find((p) => parseProxyRange(p) === null)
  if (notProxy !== undefined)
    throw new ConfigError(
      `INVOICING_TRUSTED_PROXIES must be addresses or CIDR ranges separated by commas (e.g. 127.0.0.1,10.0.0.0/8), not "${notProxy}"`,
    )
  const fxUrl = env.INVOICING_FX_URL?.trim() || ECB_DAILY_URL
  if (!/^https?:\/\//.test(fxUrl)) throw new ConfigError('INVOICING_FX_URL must be an http(s) URL')
  return {
    port,
    host,
    logRequests: log === 'requests',
    logLevel,
    rateLimit,
    publicUrl,
    dbPath: env.INVOICING_DB?.trim() || './invoicing.db',
    mailRelay,
    viesUrl,
    webhookAllowPrivate: env.INVOICING_WEBHOOK_ALLOW_PRIVATE === '1',
    smtpAllowPrivate: env.INVOICING_SMTP_ALLOW_PRIVATE === '1',
    smtpAllowPlainLogin: env.INVOICING_SMTP_ALLOW_PLAIN_LOGIN === '1',
    secretKey: env.INVOICING_SECRET_KEY?.trim() || null,
    dbAuthToken: env.INVOICING_DB_AUTH_TOKEN?.trim() || null,
    trustedProxies,
    testHoldCommitMs:
      env.NODE_ENV === 'test' && env.INVOICING_TEST_HOLD_COMMIT_MS
        ? Math.max(0, Number(env.INVOICING_TEST_HOLD_COMMIT_MS) || 0)
        : 0,
    fxUrl,
    fxAllowPrivate: env.INVOICING_FX_ALLOW_PRIVATE === '1',
    testNow: env.NODE_ENV === 'test' && env.INVOICING_TEST_NOW ? env.INVOICING_TEST_NOW : null,
    ...overrides,
  }
}

/** A public URL as given (INVOICING_PUBLIC_URL, --public-url): http(s), no query or fragment, no trailing slash. */
export function publicUrlOf(given: string | undefined, name: string): string | null {
  const url = given?.trim().replace(/\/+$/, '') || null
  if (url && !/^https?:\/\/[^/\s?#]+(\/[^\s?#]*)?$/.test(url))
    throw new ConfigError(`${name} must be an http(s) URL with no query or fragment`)
  return url
}

/** The address a person opens for a listen address: a wildcard one is reached through localhost. */
export function reachableUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host
  return `http://${shown}:${port}`
}

/**
 * Where people and Clients reach this service (extensions §8): INVOICING_PUBLIC_URL, else the address the server
 * prints at start, `http://HOST:PORT` with the host and port it listens on (`serve` writes the bound ones into the
 * config before the doors are built), so that a client on this machine reaches every link it is given.
 */
export function publicBaseUrl(config: Pick<Config, 'publicUrl' | 'port' | 'host'>): string {
  return config.publicUrl ?? reachableUrl(config.host, config.port)
}
