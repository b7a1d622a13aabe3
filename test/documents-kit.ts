// Test kit of the document tests: the Businesses, Clients and Line they start from, made through the API as a caller
// would, and the harness of a file that bills one Client.
import { beforeAll } from 'bun:test'
import { type ClientSetup, type Harness, harnessForFile } from './harness'

/** The Client the document tests bill: a German company. */
export const ACME = { name: 'Acme GmbH', email: 'billing@acme.example', country: 'DE' }

/** A German VAT-paying seller known by its legal name, Seller GmbH, with a full address: whose documents the PDF tests read. */
export const SELLER_GMBH = {
  currency: 'EUR',
  legalName: 'Seller GmbH',
  vatNumber: 'DE123456789',
  address: 'Hauptstrasse 1',
  city: 'Berlin',
  postalCode: '10115',
  country: 'DE',
  email: 'billing@seller.example',
}

/** A French VAT-registered company with a full address: the buyer a reverse charge is written for. */
export const FRENCH_BUYER = {
  name: 'Acheteur SARL',
  country: 'FR',
  address: '1 rue de la Paix',
  city: 'Paris',
  postal_code: '75002',
  vat_number: 'FR12345678901',
}

/** ACME (with `extra` over it) created through the API with the key; answers its JSON, or fails the setup. */
export async function acmeClient(h: Harness, key: string, extra: Record<string, unknown> = {}): Promise<any> {
  const r = await h.request('POST', '/v1/clients', { key, body: { ...ACME, ...extra } })
  if (r.status !== 201) throw new Error(`client refused: ${r.status} ${r.text}`)
  return r.body
}

/** A fresh Business (EUR unless `business` says otherwise) with the ACME Client: its numbers and lists start empty. */
export async function acmeSetup(
  h: Harness,
  business: Parameters<Harness['business']>[0] = {},
  client: Record<string, unknown> = {},
): Promise<ClientSetup> {
  const b = await h.business({ currency: 'EUR', ...business })
  return { bizId: b.id, key: b.key, clientId: (await acmeClient(h, b.key, client)).id }
}

/** The Line the document tests start from: one unit of Consulting at 100.00 with 19% VAT; `over` changes any field. */
export const consultingLine = (over: Record<string, unknown> = {}) => ({
  description: 'Consulting',
  quantity: '1',
  unit_price: '100.00',
  vat_rate: '19.00',
  ...over,
})

/** What a test file with one Business and one Client works on: its harness, the EUR Business and that Client. */
export interface OneClient {
  h: Harness
  biz: { id: number; key: string }
  clientId: number
}

/**
 * The harness of a test file (each test in a fresh rate-limit minute) and, made before its first test, an EUR Business
 * with one Client (the harness's Client, with `client` over it), handed to `use`.
 */
export function oneClientForFile(client: Record<string, unknown>, use: (made: OneClient) => void): void {
  let h: Harness
  harnessForFile((made) => (h = made), { freshMinute: true })
  beforeAll(async () => {
    const biz = await h.business({ currency: 'EUR' })
    use({ h, biz, clientId: await h.client(biz.key, client) })
  })
}
