// API keys: random, prefixed, stored only as a SHA-256 hash, shown once at creation.
import { createHash, randomBytes } from 'node:crypto'
import { and, eq, isNull, sql } from 'drizzle-orm'
import type { Database, Db } from '../../db/client'
import type { HotReader } from '../../db/hot'
import { apiKeys, businesses } from '../../db/schema'
import { NotFound } from '../../shared/errors'
import type { Clock } from '../../shared/clock'

export const ROLES = ['admin', 'member', 'viewer'] as const
export type Role = (typeof ROLES)[number]
export type Plan = 'free' | 'pro' | 'pro_plus' | 'paused'

const KEY_PREFIX = 'inv_'

/** 192 random bits, base64url, behind a visible prefix so keys are recognisable in configs and leaks. */
export function generateKey(): string {
  return KEY_PREFIX + randomBytes(24).toString('base64url')
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex')
}

/** What a request acts as, once its key is known. */
export interface Credential {
  apiKeyId: number
  name: string
  role: Role
  businessId: number
  businessPublicId: string
  plan: Plan
  isTest: boolean
  /** The Business's reporting currency, the default of new Clients. */
  currency: string
}

export interface ApiKeyView {
  id: number
  business_id: string
  name: string
  role: Role
  prefix: string
  created_at: string
  revoked_at: string | null
}

const LOOKUP_SQL = `SELECT k.id AS apiKeyId, k.name AS name, k.role AS role, b.id AS businessId, b.public_id AS businessPublicId,
  b.plan AS plan, b.is_test AS isTest, b.currency AS currency
  FROM api_keys k JOIN businesses b ON b.id = k.business_id WHERE k.key_hash = ? AND k.revoked_at IS NULL`

/** Looks a presented key up by its hash; one indexed read per request, so revocation acts on the next one. */
export function credentialLookup(db: Db, hot: HotReader | null = null): (key: string) => Promise<Credential | null> {
  if (hot) {
    return async (key) => {
      if (!key.startsWith(KEY_PREFIX) || key.length > 200) return null
      const row = hot.get<Omit<Credential, 'isTest'> & { isTest: number }>(LOOKUP_SQL, hashKey(key))
      return row ? { apiKeyId: row.apiKeyId, name: row.name, role: row.role, businessId: row.businessId, businessPublicId: row.businessPublicId, plan: row.plan, isTest: row.isTest === 1, currency: row.currency } : null
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
    .where(and(eq(apiKeys.keyHash, sql.placeholder('hash')), isNull(apiKeys.revokedAt)))
    .prepare()
  return async (key) => {
    if (!key.startsWith(KEY_PREFIX) || key.length > 200) return null
    const row = await stmt.get({ hash: hashKey(key) })
    return row ?? null
  }
}

export async function createApiKey(
  db: Database,
  clock: Clock,
  businessId: number,
  input: { name: string; role: Role },
): Promise<{ id: number; name: string; role: Role; key: string }> {
  const key = generateKey()
  const row = await db.write(async (tx) => {
    const b = await tx.select({ id: businesses.id }).from(businesses).where(eq(businesses.id, businessId)).get()
    if (!b) throw new NotFound('No such Business.')
    return tx
      .insert(apiKeys)
      .values({ businessId, name: input.name, role: input.role, prefix: key.slice(0, 12), keyHash: hashKey(key), createdAt: clock.now().toISOString() })
      .returning({ id: apiKeys.id })
      .get()
  })
  return { id: row.id, name: input.name, role: input.role, key }
}

export async function listApiKeys(db: Database, businessId: number): Promise<ApiKeyView[]> {
  const rows = await db.read
    .select({ key: apiKeys, publicId: businesses.publicId })
    .from(apiKeys)
    .innerJoin(businesses, eq(businesses.id, apiKeys.businessId))
    .where(eq(apiKeys.businessId, businessId))
    .orderBy(apiKeys.id)
  return rows.map(({ key: k, publicId }) => ({
    id: k.id,
    business_id: publicId,
    name: k.name,
    role: k.role,
    prefix: k.prefix,
    created_at: k.createdAt,
    revoked_at: k.revokedAt,
  }))
}

export async function revokeApiKey(db: Database, clock: Clock, keyId: number): Promise<void> {
  await db.write(async (tx) => {
    const k = await tx.select({ id: apiKeys.id, revokedAt: apiKeys.revokedAt }).from(apiKeys).where(eq(apiKeys.id, keyId)).get()
    if (!k) throw new NotFound(`No API key with id ${keyId}.`)
    if (!k.revokedAt) await tx.update(apiKeys).set({ revokedAt: clock.now().toISOString() }).where(eq(apiKeys.id, keyId))
  })
}
