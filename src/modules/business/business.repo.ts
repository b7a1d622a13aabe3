// SQL for Businesses, their bank accounts, numbering patterns and API keys.
import { and, eq, getTableColumns, isNull, sql } from 'drizzle-orm'
import type { Db, Queryable, Tx } from '../../db/client'
import { businessRowsAfter, findBusinessRow } from '../../platform/business-rows.repo'
import type { HotReader } from '../../db/hot'
import { hotSelect, hotShape } from '../../db/hot-shape'
import { apiKeys, bankAccounts, businesses, businessLogos } from '../../db/schema'
import type { Actor } from '../../platform/actor'

export type BusinessRow = typeof businesses.$inferSelect
export type BusinessInsert = typeof businesses.$inferInsert
export type BankAccountRow = typeof bankAccounts.$inferSelect
export type BankAccountInsert = typeof bankAccounts.$inferInsert
export type ApiKeyRow = typeof apiKeys.$inferSelect
export type ApiKeyInsert = typeof apiKeys.$inferInsert

// ---- Businesses

export async function insertBusiness(tx: Tx, values: BusinessInsert): Promise<BusinessRow> {
  return tx.insert(businesses).values(values).returning().get()
}

/** Sets the given columns; undefined when no Business has this id. */
export async function updateBusinessRow(
  tx: Tx,
  id: number,
  set: Partial<BusinessRow>,
): Promise<BusinessRow | undefined> {
  return tx.update(businesses).set(set).where(eq(businesses.id, id)).returning().get()
}

export async function findBusinessById(q: Queryable, id: number): Promise<BusinessRow | undefined> {
  return q.select().from(businesses).where(eq(businesses.id, id)).get()
}

// Every page of the application finds its Business by the public id in its path: through the hot reader when the
// caller has it, so that read is not the query builder's on every page.
const businessShape = hotShape<BusinessRow>(getTableColumns(businesses))

export async function findBusinessByPublicId(
  q: Queryable,
  publicId: string,
  hot: HotReader | null = null,
): Promise<BusinessRow | undefined> {
  const where = eq(businesses.publicId, publicId)
  if (hot) return hotSelect(hot, businessShape, businesses, where)[0]
  return q.select().from(businesses).where(where).get()
}

/** Whether a Business with this id exists (reads the id only). */
export async function businessExists(q: Queryable, id: number): Promise<boolean> {
  const b = await q.select({ id: businesses.id }).from(businesses).where(eq(businesses.id, id)).get()
  return !!b
}

// ---- Logo

export async function findLogoBytes(q: Queryable, businessId: number): Promise<Uint8Array | undefined> {
  const row = await q
    .select({ bytes: businessLogos.bytes })
    .from(businessLogos)
    .where(eq(businessLogos.businessId, businessId))
    .get()
  return row ? new Uint8Array(row.bytes) : undefined
}

export async function putLogoBytes(tx: Tx, businessId: number, bytes: Uint8Array | null): Promise<void> {
  await tx.delete(businessLogos).where(eq(businessLogos.businessId, businessId))
  if (bytes) await tx.insert(businessLogos).values({ businessId, bytes: Buffer.from(bytes) })
}

// ---- Bank accounts

export async function insertBankAccount(tx: Tx, values: BankAccountInsert): Promise<BankAccountRow> {
  return tx.insert(bankAccounts).values(values).returning().get()
}

export async function findBankAccount(
  q: Queryable,
  businessId: number,
  id: number,
): Promise<BankAccountRow | undefined> {
  return findBusinessRow(q, bankAccounts, businessId, id)
}

/** One page of a Business's bank accounts, by id after `afterId`. */
export async function bankAccountPage(
  q: Queryable,
  businessId: number,
  afterId: number,
  limit: number,
): Promise<BankAccountRow[]> {
  return businessRowsAfter(q, bankAccounts, businessId, afterId, limit)
}

/** The ids of all bank accounts of this Business. */
export async function bankAccountIdsOf(q: Queryable, businessId: number): Promise<number[]> {
  const own = await q.select({ id: bankAccounts.id }).from(bankAccounts).where(eq(bankAccounts.businessId, businessId))
  return own.map((r) => r.id)
}

// ---- API keys

const LOOKUP_SQL = `SELECT k.id AS apiKeyId, k.name AS name, k.role AS role, b.id AS businessId, b.public_id AS businessPublicId,
  b.plan AS plan, b.is_test AS isTest, b.currency AS currency
  FROM api_keys k JOIN businesses b ON b.id = k.business_id WHERE k.key_hash = ? AND k.revoked_at IS NULL AND b.deleted_at IS NULL`

/**
 * The credential lookup by key hash, prepared once: the hot reader's cached statement when there is one (answering
 * synchronously), else a drizzle prepared statement. Runs on every request.
 */
export function credentialByHash(
  db: Db,
  hot: HotReader | null,
): (keyHash: string) => Actor | null | Promise<Actor | null> {
  if (hot) {
    return (keyHash) => {
      const row = hot.get<Omit<KeyRow, 'isTest'> & { isTest: number }>(LOOKUP_SQL, keyHash)
      return row ? keyActor({ ...row, isTest: row.isTest === 1 }) : null
    }
  }
  const stmt = db
    .select({
      apiKeyId: apiKeys.id,
      name: apiKeys.name,
      role: apiKeys.role,
      businessId: businesses.id,
      businessPublicId: businesses.publicId,
      plan: businesses.plan,
      isTest: businesses.isTest,
      currency: businesses.currency,
    })
    .from(apiKeys)
    .innerJoin(businesses, eq(businesses.id, apiKeys.businessId))
    .where(and(eq(apiKeys.keyHash, sql.placeholder('hash')), isNull(apiKeys.revokedAt), isNull(businesses.deletedAt)))
    .prepare()
  return async (keyHash) => {
    const row = await stmt.get({ hash: keyHash })
    return row ? keyActor(row) : null
  }
}

type KeyRow = Omit<Actor, 'kind' | 'credentialId' | 'owner'> & { apiKeyId: number }

/** An API key acts as its own Role; no person stands behind it, so never as an Owner. */
function keyActor(row: KeyRow): Actor {
  return {
    businessId: row.businessId,
    businessPublicId: row.businessPublicId,
    currency: row.currency,
    plan: row.plan,
    isTest: row.isTest,
    role: row.role,
    owner: false,
    kind: 'api_key',
    credentialId: row.apiKeyId,
    name: row.name,
  }
}

export async function insertApiKey(tx: Tx, values: ApiKeyInsert): Promise<{ id: number }> {
  return tx.insert(apiKeys).values(values).returning({ id: apiKeys.id }).get()
}

/** A Business's API keys with the Business's public id, oldest first. */
export async function apiKeysOf(q: Queryable, businessId: number): Promise<{ key: ApiKeyRow; publicId: string }[]> {
  return q
    .select({ key: apiKeys, publicId: businesses.publicId })
    .from(apiKeys)
    .innerJoin(businesses, eq(businesses.id, apiKeys.businessId))
    .where(eq(apiKeys.businessId, businessId))
    .orderBy(apiKeys.id)
}

export async function findApiKeyRevocation(
  q: Queryable,
  keyId: number,
): Promise<{ id: number; revokedAt: string | null } | undefined> {
  return q.select({ id: apiKeys.id, revokedAt: apiKeys.revokedAt }).from(apiKeys).where(eq(apiKeys.id, keyId)).get()
}

export async function setApiKeyRevoked(tx: Tx, keyId: number, revokedAt: string): Promise<void> {
  await tx.update(apiKeys).set({ revokedAt }).where(eq(apiKeys.id, keyId))
}
