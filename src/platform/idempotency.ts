// Idempotency-Key on creates, for every door: byte-exact replays, another body refused, a key in flight waited for
// (in this process and in any other on the same database), and the record committed with the change it answers.
//
// A keyed request first claims its key in a row of its own (status 0, "in flight", holding a claim token and the
// wall-clock time of the claim). The first write transaction of its work marks the row done (status 1) inside that
// same transaction (db/commit-marker.ts), so the change and the record commit together: a crash can never leave a
// change without its record, and a resend never performs it twice. The answer is written into the row once it is
// known; a request that did not succeed deletes its claim (only a success keeps its key).
import { createHash, randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { Database } from '../db/client'
import { withCommitMarker, type CommitMarker } from '../db/commit-marker'
import { IdempotencyInFlight, IdempotencyMismatch, InvalidRequest } from '../shared/errors'
import type { Clock } from '../shared/clock'
import type { CredentialKind } from './actor'
import { deleteIdempotencyKeysBefore } from './idempotency.repo'

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000
const KEY_RE = /^[\x21-\x7E]{1,255}$/
/** How long a second request waits for the first under the same key before answering 409. */
const WAIT_MS = 10_000
/**
 * A claim older than this whose change never committed (still status 0) belongs to a process that died: it is taken
 * over. Longer than any request runs; a live but slower holder then finds its mark refused and rolls back.
 */
const LEASE_MS = 60_000
/** Between looks at a key another process holds. */
const POLL_MS = 25

const IN_FLIGHT = 0
const DONE = 1

export interface Answer {
  status: number
  body: string
  contentType?: string
}

export interface IdempotentRequest {
  /** The credential's kind and id: each credential has its own key space, shared by every door it uses. */
  credentialKind?: CredentialKind
  apiKeyId: number
  key: string | null
  method: string
  path: string
  rawBody: string
}

type Claim =
  | { kind: 'claimed'; token: string }
  | { kind: 'replay'; answer: Answer }
  | { kind: 'busy' }
  /** Done before (its change committed) but its answer was never written: the process died in between. */
  | { kind: 'lost' }

interface Row {
  status: number
  requestHash: string
  contentType: string
  body: string
  createdAt: string
}

export class Idempotency {
  // Keys whose first request is running in this process: waited for without asking the database.
  private readonly inFlight = new Map<string, Promise<void>>()

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly waitMs = WAIT_MS,
    private readonly leaseMs = LEASE_MS,
  ) {}

  /**
   * Performs a create once per (credential, Idempotency-Key); without a key it simply performs it. `keep` gives what
   * is stored for replays when the first answer holds something shown only once (a webhook's signing secret).
   * Answers the answer, and whether it is a replay of a kept one.
   */
  async answer(req: IdempotentRequest, perform: () => Promise<Answer>, keep: (a: Answer) => Answer = (a) => a): Promise<{ answer: Answer; replayed: boolean }> {
    if (req.key === null) return { answer: await perform(), replayed: false }
    if (!KEY_RE.test(req.key)) {
      throw new InvalidRequest({ 'Idempotency-Key': ['must be 1 to 255 printable characters with no space'] })
    }
    const hash = createHash('sha256').update(`${req.method} ${req.path}\n${req.rawBody}`).digest('hex')
    const slot = `${req.credentialKind ?? 'api_key'}:${req.apiKeyId}:${req.key}`
    const deadline = Date.now() + this.waitMs

    for (;;) {
      const running = this.inFlight.get(slot)
      if (running) {
        // Rule 4: the second request waits for the first and then answers its result.
        const timedOut = await Promise.race([running.then(() => false), Bun.sleep(Math.max(0, deadline - Date.now())).then(() => true)])
        if (timedOut) throw new IdempotencyInFlight()
        continue
      }
      let release!: () => void
      this.inFlight.set(slot, new Promise<void>((r) => (release = r)))
      try {
        // Another process may hold the key: look again until it is done or the wait is over.
        let claim = await this.claim(req, hash)
        while (claim.kind === 'busy') {
          if (Date.now() >= deadline) throw new IdempotencyInFlight()
          await Bun.sleep(POLL_MS)
          claim = await this.claim(req, hash)
        }
        if (claim.kind === 'replay') return { answer: claim.answer, replayed: true }
        if (claim.kind === 'lost') throw new IdempotencyInFlight('The first request under this Idempotency-Key was done but its answer was lost; read the record instead of resending.')
        return { answer: await this.perform(req, claim.token, perform, keep), replayed: false }
      } finally {
        this.inFlight.delete(slot)
        release()
      }
    }
  }

  /** Runs the work under the claim: its first write transaction marks the claim done; then the answer is kept. */
  private async perform(req: IdempotentRequest, token: string, perform: () => Promise<Answer>, keep: (a: Answer) => Answer): Promise<Answer> {
    const where = sql`credential_kind = ${req.credentialKind ?? 'api_key'} AND api_key_id = ${req.apiKeyId} AND key = ${req.key}`
    const marker: CommitMarker = {
      marked: false,
      async mark(tx) {
        const r = await tx.run(sql`UPDATE idempotency_keys SET status = ${DONE} WHERE ${where} AND status = ${IN_FLIGHT} AND body = ${token}`)
        // The claim was taken over (this request outlived its lease): its change must not commit a second time.
        if (r.rowsAffected !== 1) throw new IdempotencyInFlight()
      },
    }
    let answer: Answer
    try {
      answer = await withCommitMarker(marker, perform)
    } catch (e) {
      if (!marker.marked) await this.forget(req, token)
      throw e
    }
    // Rule 3: only a request that succeeded keeps its key.
    if (answer.status < 200 || answer.status >= 300) {
      if (!marker.marked) await this.forget(req, token)
      return answer
    }
    const kept = keep(answer)
    await this.db.write(async (tx) => {
      await tx.run(
        sql`UPDATE idempotency_keys SET status = ${kept.status}, content_type = ${kept.contentType ?? 'application/json'}, body = ${kept.body} WHERE ${where} AND body = ${token}`,
      )
    })
    return answer
  }

  /** Claims the key, or says who holds it or what it answered. One short write transaction. */
  private claim(req: IdempotentRequest, hash: string): Promise<Claim> {
    const now = this.clock.now()
    const since = new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString()
    return this.db.write(async (tx) => {
      const rows = (await tx.all(
        sql`SELECT status, request_hash AS requestHash, content_type AS contentType, body, created_at AS createdAt FROM idempotency_keys WHERE credential_kind = ${req.credentialKind ?? 'api_key'} AND api_key_id = ${req.apiKeyId} AND key = ${req.key}`,
      )) as Row[]
      const row = rows[0]
      if (row && row.createdAt >= since) {
        if (row.status === IN_FLIGHT) {
          const claimedAt = Number(row.body.split(':')[2])
          if (Date.now() - claimedAt < this.leaseMs) return { kind: 'busy' }
          // Its holder died before its change committed (the mark is still 0): nothing was done; take it over.
        } else {
          if (row.requestHash !== hash) throw new IdempotencyMismatch()
          if (row.status === DONE) return { kind: 'lost' }
          return { kind: 'replay', answer: { status: row.status, body: row.body, contentType: row.contentType } }
        }
      }
      const token = `claim:${randomUUID()}:${Date.now()}`
      await tx.run(
        sql`INSERT INTO idempotency_keys (credential_kind, api_key_id, key, request_hash, status, content_type, body, created_at)
            VALUES (${req.credentialKind ?? 'api_key'}, ${req.apiKeyId}, ${req.key}, ${hash}, ${IN_FLIGHT}, 'application/json', ${token}, ${now.toISOString()})
            ON CONFLICT (credential_kind, api_key_id, key) DO UPDATE SET request_hash = excluded.request_hash, status = excluded.status,
              content_type = excluded.content_type, body = excluded.body, created_at = excluded.created_at`,
      )
      return { kind: 'claimed', token }
    })
  }

  private async forget(req: IdempotentRequest, token: string): Promise<void> {
    await this.db.write(async (tx) => {
      await tx.run(sql`DELETE FROM idempotency_keys WHERE credential_kind = ${req.credentialKind ?? 'api_key'} AND api_key_id = ${req.apiKeyId} AND key = ${req.key} AND body = ${token} AND status = ${IN_FLIGHT}`)
    })
  }
}

/** Forgets keys older than 24 hours (run by the scheduler). */
export async function expireIdempotencyKeys(db: Database, clock: Clock): Promise<number> {
  const before = new Date(clock.now().getTime() - IDEMPOTENCY_TTL_MS).toISOString()
  return db.write((tx) => deleteIdempotencyKeysBefore(tx, before))
}
