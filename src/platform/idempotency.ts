// Idempotency-Key on creates, for every door: byte-exact replays, another body refused, a key in flight waited for
// (in this process and in any other on the same database), and the record committed with the change it answers.
//
// A keyed request first claims its key in a row of its own (status 0, "in flight", holding a claim token that names
// the claiming process: machine, process id and start time). The first write transaction of its work writes the
// answer into the row inside that same transaction (db/commit-marker.ts): the answer is built from what the
// transaction's body returned, before the commit, so a change never commits without its answer and a resend always
// replays it byte for byte. A request that did not succeed deletes its claim (only a success keeps its key). A claim
// whose process is gone (same machine: its process id no longer runs that process) is taken over at once; one from
// another machine after a lease of 10 seconds (extensions §12).
import { createHash, randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { hostname } from 'node:os'
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
 * A claim of another machine older than this whose change never committed (still status 0) is taken over: its process
 * may have died, and nothing on this machine can tell (extensions §12: at most 10 seconds). A live but slower holder
 * then finds its mark refused, rolls back and answers 409; nothing is done twice.
 */
const LEASE_MS = 10_000
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
  /** The body as parsed (undefined: none). Hashed in its canonical form: formatting and key order do not matter. */
  body?: unknown
  /** Or the body as received (JSON text), parsed for the hash. */
  rawBody?: string
}

/**
 * The body as the request hash reads it (extensions §11): objects' keys sorted, no white space, numbers as JSON writes
 * them; no body and an empty object are alike. The API's text and MCP's arguments of one request hash the same.
 */
export function canonicalBody(body: unknown): string {
  if (body === undefined || body === null) return ''
  if (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0) return ''
  return canonical(body)
}

function canonical(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null'
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`
  const o = v as Record<string, unknown>
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`
}

function bodyOf(req: IdempotentRequest): unknown {
  if (req.rawBody === undefined || req.rawBody === '') return req.body
  try {
    return JSON.parse(req.rawBody)
  } catch {
    return req.rawBody
  }
}

/** This process as a claim names it: its machine, its id, and when it started (so a reused id is not mistaken for it). */
export interface Holder {
  machine: string
  pid: number
  start: string
}

/** The machine: the kernel's boot id (new at each boot, shared by every process on it) and the host name. */
function machineId(): string {
  let boot = ''
  try {
    boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
  } catch {
    // No /proc: the host name alone names the machine.
  }
  return createHash('sha256').update(`${boot}\n${hostname()}`).digest('hex').slice(0, 16)
}

/** A process's start time (clock ticks since boot, field 22 of /proc/PID/stat), or null when it is not running. */
function startOf(pid: number): string | null | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null
    return undefined
  }
}

let self: Holder | null = null
export function thisProcess(): Holder {
  return (self ??= { machine: machineId(), pid: process.pid, start: startOf(process.pid) ?? '' })
}

/** Whether the process that claimed is gone: only answerable on its own machine. */
export function holderIsGone(h: Holder): boolean {
  const me = thisProcess()
  if (h.machine !== me.machine) return false
  if (h.pid === me.pid) return h.start !== me.start
  const start = startOf(h.pid)
  if (start === undefined) {
    // No /proc to read: ask the kernel whether the id still runs at all.
    try {
      process.kill(h.pid, 0)
      return false
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ESRCH'
    }
  }
  return start === null || start !== h.start
}

/** The claim token: unique, with the time of the claim and the process that holds it. */
export function claimToken(): string {
  const me = thisProcess()
  return `claim:${randomUUID()}:${Date.now()}:${me.machine}:${me.pid}:${me.start}`
}

export function holderOf(token: string): { claimedAt: number; holder: Holder | null } {
  const [, , at, machine, pid, start] = token.split(':')
  return { claimedAt: Number(at), holder: machine && pid ? { machine, pid: Number(pid), start: start ?? '' } : null }
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
  async answer(
    req: IdempotentRequest,
    perform: () => Promise<Answer>,
    keep: (a: Answer) => Answer = (a) => a,
    fromCommit?: (value: unknown) => Answer,
  ): Promise<{ answer: Answer; replayed: boolean }> {
    if (req.key === null) return { answer: await perform(), replayed: false }
    if (!KEY_RE.test(req.key)) {
      throw new InvalidRequest({ 'Idempotency-Key': ['must be 1 to 255 printable characters with no space'] })
    }
    const hash = createHash('sha256')
      .update(`${req.method} ${req.path}\n${canonicalBody(bodyOf(req))}`)
      .digest('hex')
    const slot = `${req.credentialKind ?? 'api_key'}:${req.apiKeyId}:${req.key}`
    const deadline = Date.now() + this.waitMs

    for (;;) {
      const running = this.inFlight.get(slot)
      if (running) {
        // Rule 4: the second request waits for the first and then answers its result.
        const timedOut = await Promise.race([
          running.then(() => false),
          Bun.sleep(Math.max(0, deadline - Date.now())).then(() => true),
        ])
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
        if (claim.kind === 'lost')
          throw new IdempotencyInFlight(
            'The first request under this Idempotency-Key was done but its answer was lost; read the record instead of resending.',
          )
        return { answer: await this.perform(req, claim.token, perform, keep, fromCommit), replayed: false }
      } finally {
        this.inFlight.delete(slot)
        release()
      }
    }
  }

  /**
   * Runs the work under the claim. Its first write transaction writes the answer (`fromCommit` of what the transaction
   * returned, as `keep` stores it) into the claim before it commits; without `fromCommit` it marks the claim done and
   * the answer follows in a transaction of its own (a crash between the two leaves the key answered 409 for good).
   */
  private async perform(
    req: IdempotentRequest,
    token: string,
    perform: () => Promise<Answer>,
    keep: (a: Answer) => Answer,
    fromCommit?: (value: unknown) => Answer,
  ): Promise<Answer> {
    const where = sql`credential_kind = ${req.credentialKind ?? 'api_key'} AND api_key_id = ${req.apiKeyId} AND key = ${req.key}`
    let committed: Answer | null = null
    const marker: CommitMarker = {
      marked: false,
      async mark(tx, value) {
        const answer = fromCommit ? keep(fromCommit(value)) : null
        const r = answer
          ? await tx.run(
              sql`UPDATE idempotency_keys SET status = ${answer.status}, content_type = ${answer.contentType ?? 'application/json'}, body = ${answer.body} WHERE ${where} AND status = ${IN_FLIGHT} AND body = ${token}`,
            )
          : await tx.run(
              sql`UPDATE idempotency_keys SET status = ${DONE} WHERE ${where} AND status = ${IN_FLIGHT} AND body = ${token}`,
            )
        // The claim was taken over (this request outlived its lease): its change must not commit a second time.
        if (r.rowsAffected !== 1) throw new IdempotencyInFlight()
        committed = answer
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
    const inCommit = committed as Answer | null
    if (inCommit && inCommit.status === kept.status && inCommit.body === kept.body) return answer
    // The answer differs from the one its change committed with: an operation that builds its answer outside its
    // transaction. Under test that fails the request, so the suite holds every keyed operation to the rule.
    if (inCommit && process.env.NODE_ENV === 'test')
      throw new Error(`the answer of ${req.method} ${req.path} is not the one its change committed with`)
    await this.db.write(async (tx) => {
      await tx.run(
        sql`UPDATE idempotency_keys SET status = ${kept.status}, content_type = ${kept.contentType ?? 'application/json'}, body = ${kept.body} WHERE ${where} AND ${inCommit ? sql`status <> ${IN_FLIGHT}` : sql`body = ${token}`}`,
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
          const { claimedAt, holder } = holderOf(row.body)
          // Its holder died before its change committed (the mark is still 0): nothing was done; take it over, at
          // once when its process is known to be gone, else once its lease has run out.
          if (!(holder && holderIsGone(holder)) && Date.now() - claimedAt < this.leaseMs) return { kind: 'busy' }
        } else {
          if (row.requestHash !== hash) throw new IdempotencyMismatch()
          if (row.status === DONE) return { kind: 'lost' }
          return { kind: 'replay', answer: { status: row.status, body: row.body, contentType: row.contentType } }
        }
      }
      const token = claimToken()
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
      await tx.run(
        sql`DELETE FROM idempotency_keys WHERE credential_kind = ${req.credentialKind ?? 'api_key'} AND api_key_id = ${req.apiKeyId} AND key = ${req.key} AND body = ${token} AND status = ${IN_FLIGHT}`,
      )
    })
  }
}

/** Forgets keys older than 24 hours (run by the scheduler). */
export async function expireIdempotencyKeys(db: Database, clock: Clock): Promise<number> {
  const before = new Date(clock.now().getTime() - IDEMPOTENCY_TTL_MS).toISOString()
  return db.write((tx) => deleteIdempotencyKeysBefore(tx, before))
}
