// The key secrets at rest are sealed under: INVOICING_SECRET_KEY, else a key file beside a local database (FILE.key,
// 0600, made on first start). A check value in `meta` tells a wrong key at start, in one line, before anything is
// served; rows stored before sealing existed are sealed here, once, in one transaction. When the key is lost,
// `invoicing secrets forget` (forgetSecrets) makes a new one and drops what was sealed under the old (extensions §12).
import { randomBytes } from 'node:crypto'
import { existsSync, linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { eq, like, sql } from 'drizzle-orm'
import { ConfigError } from '../config'
import { isSealed, newKeyText, parseKey, secretBox, type SecretBox } from '../shared/secret-box'
import type { Database } from './client'
import { appWebhooks, businesses, mailboxes, meta, oauthApps, webhooks } from './schema'
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

/** The way out a refusal at start names: the command, with the database as it was given. */
function forgetHint(db: Database): string {
  return `or give up the sealed secrets and keep every record with "invoicing secrets forget --db ${localFile(db) ?? db.url}"`
}

/** Reads the key file, or makes it when the database has never sealed anything; two processes at once make one. */
function keyFromFile(file: string, sealedBefore: boolean, hint: string): Buffer {
  if (!existsSync(file)) {
    if (sealedBefore) {
      throw new ConfigError(
        `the key file ${file} is missing and this database's secrets are sealed under it: put it back, or set INVOICING_SECRET_KEY to that key, ${hint}`,
      )
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
  // Read as the database opens: a plain statement on the writer's connection (Database.plain).
  const check = async () =>
    (await db.plain((s) => s.all<{ value: string }>(sql`SELECT value FROM meta WHERE key = ${CHECK_KEY}`)))[0]?.value ??
    null
  const stored = await check()
  let key: Buffer
  let source: string
  if (envKey !== null) {
    const parsed = parseKey(envKey)
    if (!parsed)
      throw new ConfigError('INVOICING_SECRET_KEY must be 32 bytes written as 64 hexadecimal digits or as base64')
    key = parsed
    source = 'INVOICING_SECRET_KEY'
  } else {
    const file = localFile(db)
    if (file === null) {
      const lost = stored !== null ? `, ${forgetHint(db)}` : ''
      throw new ConfigError(
        `a libSQL server database needs INVOICING_SECRET_KEY (the same key on every instance); there is no folder to keep a key file in${lost}`,
      )
    }
    key = keyFromFile(keyFileOf(file), stored !== null, forgetHint(db))
    source = `the key file ${keyFileOf(file)}`
  }
  const box = secretBox(key)
  let value = stored
  if (value === null) {
    await whileBusy(() =>
      db.write((tx) =>
        tx
          .insert(meta)
          .values({ key: CHECK_KEY, value: box.seal(CHECK_TEXT, 'key-check') })
          .onConflictDoNothing(),
      ),
    )
    value = (await check())!
  }
  if (!opensCheck(box, value)) {
    throw new ConfigError(
      `${source} is not the key this database's secrets were sealed with; start with the key it was set up with, ${forgetHint(db)}`,
    )
  }
  await sealStoredPlaintext(db, box)
  return box
}

function opensCheck(box: SecretBox, stored: string): boolean {
  try {
    return box.open(stored, 'key-check') === CHECK_TEXT
  } catch {
    return false
  }
}

const NOT_SEALED = (column: unknown) => sql`(${column} IS NOT NULL AND ${column} NOT LIKE 'enc:v1:%')`

/** Seals webhook secrets (a Business's and an OAuth app's) and SMTP URLs stored in plaintext (before this version); a no-op read once they all are. */
async function sealStoredPlaintext(db: Database, box: SecretBox): Promise<void> {
  const hooksLeft = sql`${NOT_SEALED(webhooks.secret)} OR ${NOT_SEALED(webhooks.previousSecret)}`
  const mailLeft = NOT_SEALED(mailboxes.smtpUrl)
  const appHooksLeft = NOT_SEALED(appWebhooks.secret)
  // One plain read at every start (three query builders cost more of a start than the reads themselves).
  const [left] = await db.plain((s) =>
    s.all<{ any: number }>(
      sql`SELECT EXISTS (SELECT 1 FROM ${webhooks} WHERE ${hooksLeft})
        OR EXISTS (SELECT 1 FROM ${mailboxes} WHERE ${mailLeft})
        OR EXISTS (SELECT 1 FROM ${appWebhooks} WHERE ${appHooksLeft}) AS "any"`,
    ),
  )
  if (!left?.any) return
  // Read again inside the transaction: another process starting at once may have sealed them meanwhile.
  await db.write(async (tx) => {
    for (const h of await tx.select().from(webhooks).where(hooksLeft).all()) {
      await tx
        .update(webhooks)
        .set({
          secret: isSealed(h.secret) ? h.secret : box.seal(h.secret, 'webhook-secret'),
          previousSecret:
            h.previousSecret === null || isSealed(h.previousSecret)
              ? h.previousSecret
              : box.seal(h.previousSecret, 'webhook-secret'),
        })
        .where(eq(webhooks.id, h.id))
    }
    for (const a of await tx.select().from(appWebhooks).where(appHooksLeft).all()) {
      await tx
        .update(appWebhooks)
        .set({ secret: box.seal(a.secret, 'webhook-secret') })
        .where(eq(appWebhooks.id, a.id))
    }
    for (const m of await tx.select().from(mailboxes).where(mailLeft).all()) {
      await tx
        .update(mailboxes)
        .set({ smtpUrl: box.seal(m.smtpUrl!, 'smtp-url') })
        .where(eq(mailboxes.businessId, m.businessId))
    }
  })
}

/** Why a webhook (a Business's or an OAuth app's) is paused once its signing secret was forgotten: rolling it ends that. */
export const SECRET_LOST_REASON = 'signing secret lost: roll it'

export interface Forgotten {
  /** Where the new key is: INVOICING_SECRET_KEY, or the key file written. */
  key: string
  /** The key file that did not open the database, kept beside it under this name (none when there was none). */
  old_key_file: string | null
  webhooks: Array<{ id: number; business_id: string; url: string }>
  app_webhooks: Array<{ client_id: string; url: string }>
  mailboxes: Array<{ business_id: string; from: string }>
}

const SEALED = (column: Parameters<typeof like>[0]) => like(column, 'enc:v1:%')

/**
 * `invoicing secrets forget`: a database whose key is lost gets a new key, and every value sealed under the old one
 * is dropped in one transaction: each webhook keeps its address and events and is paused with SECRET_LOST_REASON
 * (its secret becomes one no one was shown, so the column keeps its shape and nothing signs with a lost key); a
 * mailbox's SMTP URL (server, login and password, sealed together) is cleared, so Sends answer no_mail_provider until
 * it is set again. Every record stays. Refused while the key at hand still opens the database: nothing is lost then.
 * The new key is INVOICING_SECRET_KEY when the operator set one, else a new key file (the old one kept aside).
 */
export async function forgetSecrets(db: Database, envKey: string | null, at: string): Promise<Forgotten> {
  const stored = (await db.read.select().from(meta).where(eq(meta.key, CHECK_KEY)).get())?.value ?? null
  if (stored === null)
    throw new ConfigError('nothing in this database was ever sealed under a secret key: there is nothing to forget')
  const file = localFile(db)
  let key: Buffer
  let keyFile: string | null = null
  if (envKey !== null) {
    const parsed = parseKey(envKey)
    if (!parsed)
      throw new ConfigError('INVOICING_SECRET_KEY must be 32 bytes written as 64 hexadecimal digits or as base64')
    if (opensCheck(secretBox(parsed), stored))
      throw new ConfigError(
        "INVOICING_SECRET_KEY opens this database's secrets: nothing is lost, so nothing is forgotten",
      )
    key = parsed
  } else {
    if (file === null)
      throw new ConfigError(
        'a libSQL server database keeps no key file: set INVOICING_SECRET_KEY to the new key, then run this again',
      )
    keyFile = keyFileOf(file)
    const current = existsSync(keyFile) ? parseKey(readFileSync(keyFile, 'utf8')) : null
    if (current && opensCheck(secretBox(current), stored))
      throw new ConfigError(
        `the key file ${keyFile} opens this database's secrets: nothing is lost, so nothing is forgotten`,
      )
    key = parseKey(newKeyText())!
  }
  const box = secretBox(key)
  // Written whole before the change commits and moved into place after it: a crash in between leaves a database that
  // this command, run again, forgets anew (nothing sealed is left to lose).
  const partial = keyFile ? `${keyFile}.${process.pid}.partial` : null
  if (partial) writeFileSync(partial, key.toString('base64') + '\n', { mode: 0o600 })
  try {
    const dropped = await db.write(async (tx) => {
      const hooks = await tx
        .select({
          id: webhooks.id,
          url: webhooks.url,
          businessId: businesses.publicId,
          secret: webhooks.secret,
          previousSecret: webhooks.previousSecret,
        })
        .from(webhooks)
        .innerJoin(businesses, eq(businesses.id, webhooks.businessId))
        .where(sql`${SEALED(webhooks.secret)} OR ${SEALED(webhooks.previousSecret)}`)
        .all()
      for (const h of hooks) {
        const lost = isSealed(h.secret)
        await tx
          .update(webhooks)
          .set({
            ...(lost ? lostSecret(box) : {}),
            previousSecret: null,
            previousSecretUntil: null,
            updatedAt: at,
          })
          .where(eq(webhooks.id, h.id))
      }
      const appHooks = await tx
        .select({ id: appWebhooks.id, url: appWebhooks.url, clientId: oauthApps.clientId })
        .from(appWebhooks)
        .innerJoin(oauthApps, eq(oauthApps.id, appWebhooks.appId))
        .where(SEALED(appWebhooks.secret))
        .all()
      for (const a of appHooks) {
        await tx
          .update(appWebhooks)
          .set({ ...lostSecret(box), updatedAt: at })
          .where(eq(appWebhooks.id, a.id))
      }
      const boxes = await tx
        .select({ businessId: businesses.publicId, from: mailboxes.fromAddress, id: mailboxes.businessId })
        .from(mailboxes)
        .innerJoin(businesses, eq(businesses.id, mailboxes.businessId))
        .where(SEALED(mailboxes.smtpUrl))
        .all()
      for (const m of boxes)
        await tx.update(mailboxes).set({ smtpUrl: null, updatedAt: at }).where(eq(mailboxes.businessId, m.id))
      await tx
        .update(meta)
        .set({ value: box.seal(CHECK_TEXT, 'key-check') })
        .where(eq(meta.key, CHECK_KEY))
      return {
        webhooks: hooks
          .filter((h) => isSealed(h.secret))
          .map((h) => ({ id: h.id, business_id: h.businessId, url: h.url })),
        app_webhooks: appHooks.map((a) => ({ client_id: a.clientId, url: a.url })),
        mailboxes: boxes.map((m) => ({ business_id: m.businessId, from: m.from })),
      }
    })
    let oldKeyFile: string | null = null
    if (keyFile && partial) {
      if (existsSync(keyFile)) {
        oldKeyFile = `${keyFile}.old-${at.replace(/[^0-9]/g, '').slice(0, 14)}`
        renameSync(keyFile, oldKeyFile)
      }
      renameSync(partial, keyFile)
    }
    return { key: keyFile ?? 'INVOICING_SECRET_KEY', old_key_file: oldKeyFile, ...dropped }
  } finally {
    if (partial) rmSync(partial, { force: true })
  }
}

/** What a webhook (a Business's or an app's) whose signing secret is lost becomes: paused, signing with a sealed secret
 * no one knows until its owner rolls it. */
function lostSecret(box: SecretBox) {
  return { secret: box.seal(unknownSecret(), 'webhook-secret'), paused: true, pausedReason: SECRET_LOST_REASON }
}

/** A webhook secret in the shape signing expects (whsec_ and 32 random bytes) that no one was ever shown. */
function unknownSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}
