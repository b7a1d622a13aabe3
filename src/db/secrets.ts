// The key secrets at rest are sealed under: INVOICING_SECRET_KEY, else a key file beside a local database (FILE.key,
// 0600, made on first start). A check value in `meta` tells a wrong key at start, in one line, before anything is
// served; rows stored before sealing existed are sealed here, once, in one transaction.
import { existsSync, linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { eq, sql } from 'drizzle-orm'
import { ConfigError } from '../config'
import { isSealed, newKeyText, parseKey, secretBox, type SecretBox } from '../shared/secret-box'
import type { Database } from './client'
import { appWebhooks, mailboxes, meta, webhooks } from './schema'
import { whileBusy } from './busy'

const CHECK_KEY = 'secret_key_check'
const CHECK_TEXT = 'invoicing secret key check'

/** The key file of a local database file. */
export function keyFileOf(dbFile: string): string {
  return `${dbFile}.key`
}

function localFile(db: Database): string | null {
  return db.url.startsWith('file:') ? db.url.slice('file:'.length).split('?')[0]! : null
}

/** Reads the key file, or makes it when the database has never sealed anything; two processes at once make one. */
function keyFromFile(file: string, sealedBefore: boolean): Buffer {
  if (!existsSync(file)) {
    if (sealedBefore) {
      throw new ConfigError(`the key file ${file} is missing and this database's secrets are sealed under it: put it back, or set INVOICING_SECRET_KEY to that key`)
    }
    // Written whole under another name, then linked into place: a second process starting now either links first
    // (and this one reads its key) or finds the complete file, never an empty one.
    const partial = `${file}.${process.pid}.partial`
    writeFileSync(partial, newKeyText() + '\n', { mode: 0o600 })
    try {
      linkSync(partial, file)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
    } finally {
      rmSync(partial, { force: true })
    }
  }
  const key = parseKey(readFileSync(file, 'utf8'))
  if (!key) throw new ConfigError(`the key file ${file} does not hold a key (32 bytes as base64 or 64 hex digits)`)
  return key
}

export async function unlockSecrets(db: Database, envKey: string | null): Promise<SecretBox> {
  const check = async () => (await db.read.select().from(meta).where(eq(meta.key, CHECK_KEY)).get())?.value ?? null
  const stored = await check()
  let key: Buffer
  let source: string
  if (envKey !== null) {
    const parsed = parseKey(envKey)
    if (!parsed) throw new ConfigError('INVOICING_SECRET_KEY must be 32 bytes written as 64 hexadecimal digits or as base64')
    key = parsed
    source = 'INVOICING_SECRET_KEY'
  } else {
    const file = localFile(db)
    if (file === null) throw new ConfigError('a libSQL server database needs INVOICING_SECRET_KEY (the same key on every instance); there is no folder to keep a key file in')
    key = keyFromFile(keyFileOf(file), stored !== null)
    source = `the key file ${keyFileOf(file)}`
  }
  const box = secretBox(key)
  let value = stored
  if (value === null) {
    await whileBusy(() => db.write((tx) => tx.insert(meta).values({ key: CHECK_KEY, value: box.seal(CHECK_TEXT, 'key-check') }).onConflictDoNothing()))
    value = (await check())!
  }
  let opened: string | null = null
  try {
    opened = box.open(value, 'key-check')
  } catch {
    opened = null
  }
  if (opened !== CHECK_TEXT) {
    throw new ConfigError(`${source} is not the key this database's secrets were sealed with; start with the key it was set up with`)
  }
  await sealStoredPlaintext(db, box)
  return box
}

const NOT_SEALED = (column: unknown) => sql`(${column} IS NOT NULL AND ${column} NOT LIKE 'enc:v1:%')`

/** Seals webhook secrets (a Business's and an OAuth app's) and SMTP URLs stored in plaintext (before this version); a no-op read once they all are. */
async function sealStoredPlaintext(db: Database, box: SecretBox): Promise<void> {
  const hooksLeft = sql`${NOT_SEALED(webhooks.secret)} OR ${NOT_SEALED(webhooks.previousSecret)}`
  const mailLeft = NOT_SEALED(mailboxes.smtpUrl)
  const appHooksLeft = NOT_SEALED(appWebhooks.secret)
  const anyHook = await db.read.select({ id: webhooks.id }).from(webhooks).where(hooksLeft).limit(1).get()
  const anyMail = await db.read.select({ id: mailboxes.businessId }).from(mailboxes).where(mailLeft).limit(1).get()
  const anyAppHook = await db.read.select({ id: appWebhooks.id }).from(appWebhooks).where(appHooksLeft).limit(1).get()
  if (!anyHook && !anyMail && !anyAppHook) return
  // Read again inside the transaction: another process starting at once may have sealed them meanwhile.
  await db.write(async (tx) => {
    for (const h of await tx.select().from(webhooks).where(hooksLeft).all()) {
      await tx
        .update(webhooks)
        .set({
          secret: isSealed(h.secret) ? h.secret : box.seal(h.secret, 'webhook-secret'),
          previousSecret: h.previousSecret === null || isSealed(h.previousSecret) ? h.previousSecret : box.seal(h.previousSecret, 'webhook-secret'),
        })
        .where(eq(webhooks.id, h.id))
    }
    for (const a of await tx.select().from(appWebhooks).where(appHooksLeft).all()) {
      await tx.update(appWebhooks).set({ secret: box.seal(a.secret, 'webhook-secret') }).where(eq(appWebhooks.id, a.id))
    }
    for (const m of await tx.select().from(mailboxes).where(mailLeft).all()) {
      await tx.update(mailboxes).set({ smtpUrl: box.seal(m.smtpUrl!, 'smtp-url') }).where(eq(mailboxes.businessId, m.businessId))
    }
  })
}
