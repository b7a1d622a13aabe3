// What the webhook tests share: a real receiver (Bun.serve on 127.0.0.1) that keeps every message it gets, the
// `standardwebhooks` library's verification as a receiver runs it, and the Invoice whose issue commits one
// document.issued event.
import { afterAll, beforeAll, setSystemTime } from 'bun:test'
import { Webhook } from 'standardwebhooks'
import { makeHarness, type Harness } from '../../../test/harness'

export interface Received {
  headers: Record<string, string>
  body: string
  /** The service clock when the message arrived (for library verification under an injected clock). */
  at: Date
}

export type Answer = (req: Request, body: string) => Response | Promise<Response>

/** A receiver at `url` keeping each message in `got`; `answer` (switchable) decides what it says back. */
export function receiver(clock: { now(): Date }, answer: Answer = () => new Response('ok')) {
  const state = { answer }
  const got: Received[] = []
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const body = await req.text()
      got.push({ headers: Object.fromEntries(req.headers), body, at: clock.now() })
      return state.answer(req, body)
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}/hook`,
    port: server.port!,
    got,
    set answer(a: Answer) {
      state.answer = a
    },
    stop: () => server.stop(true),
  }
}

/** Verifies with the standardwebhooks library as a receiver would, its clock at the moment the message arrived. */
export function verify(secret: string, m: Received): any {
  setSystemTime(m.at)
  try {
    return new Webhook(secret).verify(m.body, m.headers)
  } finally {
    setSystemTime()
  }
}

/** One line of 10.00 at 0 %: the Invoice of the tests where its amount does not matter. */
export const WORK_LINE = { description: 'Work', quantity: '1', unit_price: '10.00', vat_rate: '0' }

/** One line of 100.00 at 0 %: the Invoice of the delivery tests. */
export const CONSULTING_LINE = { description: 'Consulting', quantity: '1', unit_price: '100.00', vat_rate: '0' }

/** The Client of the delivery tests (Acme GmbH of Germany, billed in EUR), made through the API. */
export function acmeClient(h: Harness, key: string): Promise<number> {
  return h.client(key, { name: 'Acme GmbH', email: 'billing@acme.example', currency: 'EUR' })
}

/** Issues an Invoice of `line` for the Client: one document.issued event committed. Returns the document. */
export async function issueInvoice(h: Harness, key: string, clientId: number, line: object = WORK_LINE): Promise<any> {
  const d = await h.request('POST', '/v1/documents', {
    key,
    body: { type: 'invoice', client_id: clientId, lines: [line] },
  })
  if (d.status !== 201) throw new Error(`draft refused: ${d.status} ${d.text}`)
  const r = await h.request('POST', `/v1/documents/${d.body.id}/issue`, { key })
  if (r.status !== 200) throw new Error(`issue refused: ${r.status} ${r.text}`)
  return r.body
}

/** An Invoice issued for a new Client of the Business (Acme of Germany, in EUR): one document.issued event. */
export async function issueForNewClient(h: Harness, key: string): Promise<any> {
  return issueInvoice(h, key, await h.client(key, { name: 'Acme', email: 'a@acme.example', currency: 'EUR' }))
}

/**
 * A harness whose webhooks may go to 127.0.0.1, its rate limit out of the way and its clock on the real now: the
 * standardwebhooks library refuses a message more than 5 minutes from its own clock.
 */
export async function liveDeliveryHarness(): Promise<Harness> {
  const h = await makeHarness({ config: { webhookAllowPrivate: true, rateLimit: 100_000 } })
  h.clock.set(new Date())
  return h
}

/**
 * For a describe: a liveDeliveryHarness with a Business's Admin key and its Acme client (acmeClient), handed to `use`
 * before the first test; the harness is closed after the last.
 */
export function liveDeliveryFixture(use: (f: { h: Harness; key: string; clientId: number }) => void): void {
  let h: Harness | undefined
  beforeAll(async () => {
    h = await liveDeliveryHarness()
    const { key } = await h.business()
    use({ h, key, clientId: await acmeClient(h, key) })
  })
  afterAll(() => h?.close())
}
