// The door runner: what every door does around an operation, in one place and one order. A door reads its protocol
// (the credential into an Actor, the input from its request or arguments); the runner counts and judges the call
// (plan, then rate, then Role), runs the operation (an idempotent one under its Idempotency-Key, its answer committed
// with its change and kept for replays), and writes the request-log entry. The door turns the Result into its answer.
import { credentialKey, type Actor } from './actor'
import type { Answer, Idempotency } from './idempotency'
import {
  apiPathOf,
  runOperation,
  type Operation,
  type OperationContext,
  type OperationInput,
  type Result,
} from './operation'
import { roleRefusal, type Access } from './policy'
import type { RateCount, RateDecision } from './rate-count'
import type { RequestLogWriter } from './request-log'
import { ApiError, RateLimited } from '../shared/errors'
import type { Clock } from '../shared/clock'

export interface DoorRunnerDeps {
  operations: readonly Operation[]
  context: OperationContext
  /** One count per credential, shared by every door it uses. */
  rateCount: RateCount
  /** One key space per credential, shared by every door it uses. */
  idempotency: Idempotency
  requestLog: RequestLogWriter
  clock: Clock
}

/** The call counted against its credential, and the first refusal in the contract's order (null: it may go on). */
export interface Admission {
  rate: RateDecision
  refused: ApiError | null
}

/** What a door read of a keyed call: the Idempotency-Key, and the body as received (parsed, or as JSON text). */
export interface Keyed {
  key: string | null
  body?: unknown
  rawBody?: string
}

/** What the request log records of one call: the door's method and path, and the status the API would answer. */
export interface LogLine {
  requestId: string
  method: string
  path: string
  status: number
  ip: string | null
}

export class DoorRunner {
  private readonly byName: Map<string, Operation>

  constructor(private readonly d: DoorRunnerDeps) {
    this.byName = new Map(d.operations.map((op) => [op.name, op]))
  }

  /**
   * Counts the call and judges it: the door's plan rule before any other answer, then the rate count, then what the
   * door judges before the Role (the API: a method the path does not answer), then the Role, which is asked before
   * the record the call names.
   */
  async admit(
    actor: Actor,
    access: Access,
    plan: ApiError | null,
    beforeRole: ApiError | null = null,
  ): Promise<Admission> {
    const rate = await this.d.rateCount.hit(credentialKey(actor), this.d.clock.now().getTime())
    const refused =
      plan ??
      (rate.allowed ? null : new RateLimited(rate.limit, rate.retryAfter)) ??
      beforeRole ??
      roleRefusal(actor, access)
    return { rate, refused }
  }

  /**
   * Runs an operation for an Actor. An idempotent one with a key runs once per (credential, key): its answer is written
   * with its change (`committed`), what `keep` says is stored, and a resend through either door replays it byte for
   * byte (`replayed`); its Result is then the answer's JSON text.
   */
  async perform(
    op: Operation,
    actor: Actor,
    input: OperationInput,
    keyed?: Keyed,
  ): Promise<{ result: Result; replayed: boolean }> {
    const context = this.d.context
    if (!op.idempotent || !keyed || keyed.key === null)
      return { result: await runOperation(op, actor, input, context), replayed: false }
    const { answer, replayed } = await this.d.idempotency.answer(
      {
        credentialKind: actor.kind,
        apiKeyId: actor.credentialId,
        key: keyed.key,
        method: op.http.method,
        path: apiPathOf(op, input.path),
        body: keyed.body,
        rawBody: keyed.rawBody,
      },
      async () => answerOf(await runOperation(op, actor, input, context)),
      keptOf(op),
      op.committed ? committedOf(op, op.committed) : undefined,
    )
    return { result: { kind: 'text', status: answer.status, text: answer.body }, replayed }
  }

  /**
   * The entry for a door that names the operation (the application's pages): the operation by its name, run for the
   * Actor with the input read from the form, under an Idempotency-Key when one is given. The caller judges its own
   * door's plan rule; the Role is judged here.
   */
  async call(name: string, actor: Actor, input: Partial<OperationInput>, key: string | null = null): Promise<Result> {
    const op = this.byName.get(name)
    if (!op) throw new Error(`no operation named ${name}`)
    const refused = roleRefusal(actor, op.access)
    if (refused) throw refused
    const full: OperationInput = { path: input.path ?? {}, query: input.query ?? {}, body: input.body }
    return (await this.perform(op, actor, full, { key, body: full.body })).result
  }

  /** One entry of the request log, buffered (written in batches). */
  log(actor: Actor, line: LogLine): void {
    this.d.requestLog.add({
      businessId: actor.businessId,
      requestId: line.requestId,
      method: line.method,
      path: line.path,
      status: line.status,
      credentialType: actor.kind,
      credentialName: actor.name,
      ip: line.ip,
      at: this.d.clock.now().toISOString(),
    })
  }
}

/** The status the API answers for a Result or a refusal: what the request log records whichever door answered. */
export function statusOf(r: Result | ApiError): number {
  if (r instanceof ApiError) return r.status
  if (r.kind === 'deleted') return 204
  if (r.kind === 'file') return 200
  return r.status
}

/** A Result as kept text: an idempotent operation answers JSON. */
function answerOf(r: Result): Answer {
  if (r.kind === 'json') return { status: r.status, body: JSON.stringify(r.value) }
  if (r.kind === 'text') return { status: r.status, body: r.text }
  if (r.kind === 'deleted') return { status: 204, body: '' }
  throw new Error('a file answer is not kept for idempotent replays')
}

function keptOf(op: Operation): ((a: Answer) => Answer) | undefined {
  const keep = op.keep
  return keep ? (a) => ({ ...a, body: JSON.stringify(keep(JSON.parse(a.body))) }) : undefined
}

function committedOf(op: Operation, committed: (value: unknown) => unknown): (value: unknown) => Answer {
  return (value) => ({ status: op.http.status, body: JSON.stringify(committed(value)) })
}
