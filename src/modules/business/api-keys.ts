// API keys: random, prefixed, stored only as a SHA-256 hash, shown once at creation.
import { createHash, randomBytes } from 'node:crypto'
import type { Database, Db } from '../../db/client'
import type { HotReader } from '../../db/hot'
import { NotFound } from '../../shared/errors'
import type { Clock } from '../../shared/clock'
import type { Actor, KeyRole } from '../../platform/actor'
import type { CredentialResolver } from '../../platform/credentials'
import {
  apiKeysOf,
  businessExists,
  credentialByHash,
  findApiKeyRevocation,
  insertApiKey,
  setApiKeyRevoked,
} from './business.repo'

export { ROLES, KEY_ROLES, type Role, type KeyRole, type Plan } from '../../platform/actor'

const KEY_PREFIX = 'inv_'

/** Connected-app tokens share the `inv_` prefix; a key never starts like one, so each resolver knows its own. */
const TOKEN_PREFIXES = ['inv_at_', 'inv_rt_']

/** 192 random bits, base64url, behind a visible prefix so keys are recognisable in configs and leaks. */
function generateKey(): string {
  for (;;) {
    const key = KEY_PREFIX + randomBytes(24).toString('base64url')
    if (!TOKEN_PREFIXES.some((p) => key.startsWith(p))) return key
  }
}

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex')
}

export interface ApiKeyView {
  id: number
  business_id: string
  name: string
  role: KeyRole
  prefix: string
  created_at: string
  revoked_at: string | null
}

/** Resolves a presented key into its Actor by the key's hash; one indexed read per request, so revocation acts on the next one. */
export function credentialLookup(db: Db, hot: HotReader | null = null): (key: string) => Promise<Actor | null> {
  const byHash = credentialByHash(db, hot)
  return async (key) => {
    if (!key.startsWith(KEY_PREFIX) || key.length > 200) return null
    return byHash(hashKey(key))
  }
}

/** API keys as one kind of bearer credential (platform/credentials.ts): they open every resource. */
export function apiKeyResolver(db: Db, hot: HotReader | null = null): CredentialResolver {
  const lookup = credentialLookup(db, hot)
  return {
    accepts: (credential) => credential.startsWith(KEY_PREFIX) && !TOKEN_PREFIXES.some((p) => credential.startsWith(p)),
    resolve: (credential) => lookup(credential),
  }
}

export async function createApiKey(
  db: Database,
  clock: Clock,
  businessId: number,
  input: { name: string; role: KeyRole },
): Promise<{ id: number; name: string; role: KeyRole; key: string }> {
  const key = generateKey()
  const row = await db.write(async (tx) => {
    if (!(await businessExists(tx, businessId))) throw new NotFound('No such Business.')
    return insertApiKey(tx, {
      businessId,
      name: input.name,
      role: input.role,
      prefix: key.slice(0, 12),
      keyHash: hashKey(key),
      createdAt: clock.now().toISOString(),
    })
  })
  return { id: row.id, name: input.name, role: input.role, key }
}

export async function listApiKeys(db: Database, businessId: number): Promise<ApiKeyView[]> {
  const rows = await apiKeysOf(db.read, businessId)
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
    const k = await findApiKeyRevocation(tx, keyId)
    if (!k) throw new NotFound(`No API key with id ${keyId}.`)
    if (!k.revokedAt) await setApiKeyRevoked(tx, keyId, clock.now().toISOString())
  })
}
