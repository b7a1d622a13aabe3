// Idempotency-Key on creates: byte-exact replays, another body refused, in-flight requests waited for.
import { createHash } from 'node:crypto'
import type { Database } from '../db/client'
import { IdempotencyInFlight, IdempotencyMismatch, InvalidRequest } from '../shared/errors'
import type { Clock } from '../shared/clock'
import { deleteIdempotencyKeysBefore, findIdempotencyKey, saveIdempotencyKey } from './idempotency.repo'

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000
const KEY_RE = /^[\x21-\x7E]{1,255}$/
/** How long a second request waits for the first under the same key before answering 409. */
const WAIT_MS = 10_000

export interface Answer {
  status: number
  body: string
  contentType?: string
}

export interface IdempotentRequest {
  apiKeyId: number
  key: string | null
  method: string
  path: string
  rawBody: string
}

export function answerResponse(a: Answer, replayed = false): Response {
  const headers: Record<string, string> = { 'content-type': a.contentType ?? 'application/json' }
  if (replayed) headers['Idempotent-Replayed'] = 'true'
  return new Response(a.status === 204 ? null : a.body, { status: a.status, headers })
}

export class Idempotency {
  // Keys whose first request is running in this process; a crash forgets them, so nothing stays stuck.
  private readonly inFlight = new Map<string, Promise<void>>()

  constructor(private readonly db: Database, private readonly clock: Clock) {}

  /**
   * Performs a create once per (API key, Idempotency-Key); without a key it simply performs it. `keep` gives what is
   * stored for replays when the first answer holds something shown only once (a webhook's signing secret).
   */
  async run(req: IdempotentRequest, perform: () => Promise<Answer>, keep: (a: Answer) => Answer = (a) => a): Promise<Response> {
    const { answer, replayed } = await this.answer(req, perform, keep)
    return answerResponse(answer, replayed)
  }

  /** As run, for a door that writes its own answer (MCP): the answer, and whether it is a replay of a kept one. */
  async answer(req: IdempotentRequest, perform: () => Promise<Answer>, keep: (a: Answer) => Answer = (a) => a): Promise<{ answer: Answer; replayed: boolean }> {
    if (req.key === null) return { answer: await perform(), replayed: false }
    if (!KEY_RE.test(req.key)) {
      throw new InvalidRequest({ 'Idempotency-Key': ['must be 1 to 255 printable characters with no space'] })
    }
    const hash = createHash('sha256').update(`${req.method} ${req.path}\n${req.rawBody}`).digest('hex')
    const slot = `${req.apiKeyId}:${req.key}`
    const deadline = Date.now() + WAIT_MS

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
        const stored = await this.find(req.apiKeyId, req.key)
        if (stored) {
          if (stored.requestHash !== hash) throw new IdempotencyMismatch()
          return { answer: { status: stored.status, body: stored.body, contentType: stored.contentType }, replayed: true }
        }
        const answer = await perform()
        // Rule 3: only a request that succeeded keeps its key.
        if (answer.status >= 200 && answer.status < 300) await this.save(req, hash, keep(answer))
        return { answer, replayed: false }
      } finally {
        this.inFlight.delete(slot)
        release()
      }
    }
  }

  private async find(apiKeyId: number, key: string) {
    const since = new Date(this.clock.now().getTime() - IDEMPOTENCY_TTL_MS).toISOString()
    return findIdempotencyKey(this.db.read, apiKeyId, key, since)
  }

  private async save(req: IdempotentRequest, hash: string, a: Answer): Promise<void> {
    const row = {
      apiKeyId: req.apiKeyId,
      key: req.key!,
      requestHash: hash,
      status: a.status,
      contentType: a.contentType ?? 'application/json',
      body: a.body,
      createdAt: this.clock.now().toISOString(),
    }
    await this.db.write((tx) => saveIdempotencyKey(tx, row))
  }
}

/** Forgets keys older than 24 hours (run by the scheduler). */
export async function expireIdempotencyKeys(db: Database, clock: Clock): Promise<number> {
  const before = new Date(clock.now().getTime() - IDEMPOTENCY_TTL_MS).toISOString()
  return db.write((tx) => deleteIdempotencyKeysBefore(tx, before))
}
