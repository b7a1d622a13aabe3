// `invoicing secrets forget [--db FILE]` (extensions §12): the way back in when a database's secret key is lost. The
// database is opened without its key (the start-up check is what refuses it), given a new key, and every value sealed
// under the old one dropped; what was dropped is printed. Every record stays.
import type { Config } from '../config'
import { openDatabase } from '../db/client'
import { applyMigrations } from '../db/migrate'
import { forgetSecrets } from '../db/secrets'
import { systemClock } from '../shared/clock'
import { allowOnly, UsageError, type Args } from './args'
import { print } from './output'

export const SECRETS_USAGE = ['secrets forget [--db FILE_OR_URL]']

export async function secretsCommand(config: Config, args: Args): Promise<void> {
  allowOnly(args, [])
  if (args.words[1] !== 'forget' || args.words.length > 2) throw new UsageError(`usage: invoicing ${SECRETS_USAGE[0]}`)
  const db = await openDatabase(config.dbPath, { authToken: config.dbAuthToken ?? undefined })
  try {
    await applyMigrations(db)
    const f = await forgetSecrets(db, config.secretKey, systemClock.now().toISOString())
    const said = [
      `${f.webhooks.length} webhook signing secret(s) dropped (each webhook paused: roll its secret)`,
      `${f.app_webhooks.length} OAuth app webhook secret(s) dropped (set each app's webhook again)`,
      `${f.mailboxes.length} mailbox password(s) dropped (set each mailbox again)`,
    ]
    print(args, {
      new_key: f.key,
      old_key_file: f.old_key_file,
      dropped: { webhooks: f.webhooks, app_webhooks: f.app_webhooks, mailboxes: f.mailboxes },
      summary: said.join('; '),
    })
    await db.checkpoint('PASSIVE').catch(() => undefined)
  } finally {
    db.close()
  }
}
