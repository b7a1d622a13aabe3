// The composition root: builds every dependency once, for the server, the CLI and the tests alike.
import type { Config } from './config'
import { openDatabase, type Database } from './db/client'
import { holdMarkedTransactions } from './db/commit-marker'
import { applyMigrations } from './db/migrate'
import { unlockSecrets } from './db/secrets'
import { clockFrom, systemClock, type Clock } from './shared/clock'
import { httpViesClient, type ViesClient } from './adapters/vies'
import { smtpMailer, type Mailer } from './adapters/smtp'
import { createLogger, type Logger } from './shared/logger'
import { httpSender, type WebhookSender } from './adapters/http'
import { systemResolver, type Resolver } from './modules/webhooks/address-guard'
import { openingMailer } from './modules/mailbox'
import { httpDocumentFetcher, type DocumentFetcher } from './adapters/document-fetch'
import { backfillJournal } from './modules/journal'
import { keepingOutbox } from './modules/outbox'

export interface Deps {
  config: Config
  db: Database
  clock: Clock
  vies: ViesClient
  /** Sends email over SMTP (a Send's document). */
  mailer: Mailer
  logger: Logger
  /** Webhook POSTs and the DNS answers their addresses are checked against. */
  sender: WebhookSender
  resolve: Resolver
  /** GETs OAuth Client ID Metadata Documents (from addresses the resolver's answers passed). */
  fetcher: DocumentFetcher
}

export interface DepsOverrides {
  /** false: a local file is used through @libsql/client alone, as a libSQL server is (tests of those paths). */
  native?: boolean
  clock?: Clock
  vies?: ViesClient
  mailer?: Mailer
  logger?: Logger
  sender?: WebhookSender
  resolve?: Resolver
  fetcher?: DocumentFetcher
}

export async function createDeps(config: Config, overrides: DepsOverrides = {}): Promise<Deps> {
  const db = await openDatabase(config.dbPath, { authToken: config.dbAuthToken ?? undefined, native: overrides.native })
  if (config.testHoldCommitMs) holdMarkedTransactions(config.testHoldCommitMs)
  try {
    await applyMigrations(db)
    // What the opening reads goes as plain statements on the writer's connection (Database.plain): the reader's
    // connection reads the schema with the first request that reads through it, not at every start (issue 34).
    db.secrets = await unlockSecrets(db, config.secretKey)
    // A database from before the journal: what it had issued and recorded gets its entries before anything more is.
    await backfillJournal(db, overrides.clock ?? systemClock)
  } catch (e) {
    db.close()
    throw e
  }
  const clock = overrides.clock ?? (config.testNow ? clockFrom(config.testNow) : systemClock)
  return {
    config,
    db,
    clock,
    vies: overrides.vies ?? httpViesClient(config.viesUrl),
    // A Test business's emails to its Clients are kept in its outbox and never reach a mail server.
    mailer: keepingOutbox(
      openingMailer(overrides.mailer ?? smtpMailer(), db, {
        relay: config.mailRelay,
        resolve: overrides.resolve ?? systemResolver,
        allowPrivate: config.smtpAllowPrivate,
        allowPlainLogin: config.smtpAllowPlainLogin,
      }),
      db,
      clock,
    ),
    logger: overrides.logger ?? createLogger(undefined, config.logLevel),
    sender: overrides.sender ?? httpSender,
    resolve: overrides.resolve ?? systemResolver,
    fetcher: overrides.fetcher ?? httpDocumentFetcher,
  }
}
