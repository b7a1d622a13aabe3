// The composition root: builds every dependency once, for the server, the CLI and the tests alike.
import type { Config } from './config'
import { openDatabase, type Database } from './db/client'
import { applyMigrations } from './db/migrate'
import { systemClock, type Clock } from './shared/clock'
import { httpViesClient, type ViesClient } from './adapters/vies'
import { smtpMailer, type Mailer } from './adapters/smtp'
import { createLogger, type Logger } from './shared/logger'
import { httpSender, type WebhookSender } from './adapters/http'
import { systemResolver, type Resolver } from './modules/webhooks/address-guard'

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
}

export interface DepsOverrides {
  clock?: Clock
  vies?: ViesClient
  mailer?: Mailer
  logger?: Logger
  sender?: WebhookSender
  resolve?: Resolver
}

export async function createDeps(config: Config, overrides: DepsOverrides = {}): Promise<Deps> {
  const db = await openDatabase(config.dbPath)
  await applyMigrations(db)
  return {
    config,
    db,
    clock: overrides.clock ?? systemClock,
    vies: overrides.vies ?? httpViesClient(config.viesUrl),
    mailer: overrides.mailer ?? smtpMailer(),
    logger: overrides.logger ?? createLogger(undefined, config.logLevel),
    sender: overrides.sender ?? httpSender,
    resolve: overrides.resolve ?? systemResolver,
  }
}
