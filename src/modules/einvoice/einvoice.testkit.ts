// Test kit of the e-invoice tests: the German seller they export from, and the exported XML written to the test's
// folder and checked with xmllint, against the OASIS UBL 2.1 XSD and read by XPath over local names (so tests need not
// bind the UBL namespaces).
import { expect } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { type ClientSetup, draftFor, type Harness, issuedFor, type TestResponse } from '../../../test/harness'
import { consultingLine } from '../../../test/documents-kit'
import type { BusinessInput } from '../business'

/** A German VAT-paying Business with a full address: the seller every export test starts from. */
export const GERMAN_SELLER = {
  name: 'Seller GmbH',
  vatNumber: 'DE123456789',
  address: 'Hauptstrasse 1',
  city: 'Berlin',
  postalCode: '10115',
  email: 'billing@seller.example',
}

export interface Seller {
  id: number
  publicId: string
  key: string
}

/** A German VAT-paying Business with a full address (GERMAN_SELLER), made on the harness. */
export function germanSeller(h: Harness, input: Partial<BusinessInput> = {}): Promise<Seller> {
  return h.business({ ...GERMAN_SELLER, ...input })
}

/** The Seller's set-up for one of its Clients, as the harness's draftFor and issuedFor take it. */
export function sellerSetup(s: Seller, clientId: number): ClientSetup {
  return { bizId: s.id, key: s.key, clientId }
}

/** A German company with a full address: the buyer the export tests bill (the body of POST /v1/clients). */
export const GERMAN_BUYER = {
  name: 'Buyer AG',
  email: 'ap@buyer.example',
  country: 'DE',
  address: 'Marktplatz 2',
  city: 'Hamburg',
  postal_code: '20095',
}

/** The Line the export tests start from: one unit of Consulting services at 100.00 with 19% VAT; `over` changes any field. */
export const servicesLine = (over: Record<string, unknown> = {}) =>
  consultingLine({ description: 'Consulting services', ...over })

/** An exempt (0%) services Line of the VAT category, with its exemption reason code; `over` changes any field. */
export const exemptLine = (category: string, code: string, over: Record<string, unknown> = {}) =>
  servicesLine({ vat_rate: '0', vat_category: category, vat_exemption_code: code, ...over })

/** The OASIS schemas, beside the repository in ../shared (as CI lays it out). */
const XSD_DIR = resolve(import.meta.dir, '../../../../shared/en16931/ubl-2.1-xsd/maindoc')

/** `/Invoice/TaxTotal/TaxAmount` → the same path by local names. */
export function localPath(path: string): string {
  return path.replace(/([A-Za-z][A-Za-z0-9]*)(?=\/|\[|=|$)/g, "*[local-name()='$1']")
}

/** xmllint over XML written into `dir()` (asked at each write: the harness's folder exists once it is made) as `name-N.xml`. */
export function xmllint(dir: () => string, name: string) {
  let files = 0
  function fileOf(xml: string): string {
    const file = join(dir(), `${name}-${++files}.xml`)
    writeFileSync(file, xml)
    return file
  }
  /** An XPath 1.0 expression over a written file, its answer as text. */
  const xpathIn = (file: string, expr: string) =>
    Bun.spawnSync(['xmllint', '--nonet', '--xpath', expr, file]).stdout.toString().trim()
  return {
    fileOf,
    xpathIn,
    xpath: (xml: string, expr: string) => xpathIn(fileOf(xml), expr),
    /** One XML document written once and read by XPath over local-name paths. */
    read(xml: string) {
      const file = fileOf(xml)
      const xpath = (expr: string) => xpathIn(file, expr)
      return {
        text: (path: string) => xpath(`string(${localPath(path)})`),
        count: (path: string) => Number(xpath(`count(${localPath(path)})`)),
        /** The text at `rest` below the `i`th (from 1) node at `path`. */
        nth: (path: string, i: number, rest: string) => xpath(`string((${localPath(path)})[${i}]/${localPath(rest)})`),
        /** Any XPath 1.0 expression answering a number. */
        number: (expr: string) => Number(xpath(expr)),
      }
    },
    /** xmllint's complaints, '' when the document is valid against the UBL 2.1 schema of its kind. */
    xsdErrors(xml: string): string {
      const kind = /<CreditNote[\s>]/.test(xml) ? 'CreditNote' : 'Invoice'
      const r = Bun.spawnSync([
        'xmllint',
        '--nonet',
        '--noout',
        '--schema',
        join(XSD_DIR, `UBL-${kind}-2.1.xsd`),
        fileOf(xml),
      ])
      return r.exitCode === 0 ? '' : `${r.stdout.toString()}${r.stderr.toString()}`
    },
  }
}

/** The document's EN16931 XML as the API answers it, to the Seller's key or another. */
export function xmlOf(h: Harness, s: Seller, id: number, key = s.key): Promise<TestResponse> {
  return h.request('GET', `/v1/documents/${id}/xml`, { key })
}

/** Exports and expects a 200 XML attachment that the XSD accepts (`xsdErrors` of the file's xmllint); answers the XML. */
export async function exportedXml(
  h: Harness,
  s: Seller,
  id: number,
  xsdErrors: (xml: string) => string,
): Promise<string> {
  const r = await xmlOf(h, s, id)
  if (r.status !== 200) throw new Error(`export refused: ${r.status} ${r.text}`)
  expect(r.headers.get('content-type')).toBe('application/xml')
  expect(xsdErrors(r.text)).toBe('')
  return r.text
}

/**
 * The setup the export tests make through the API on their file's harness (`harness()` is asked at each call: it is
 * made before the first test): the German seller, its German buyer, Invoices of one Consulting services Line unless
 * the body says otherwise, and their XML, exported as is or expected to export and pass the XSD.
 */
export function exportSetup(harness: () => Harness, xsdErrors: (xml: string) => string) {
  const invoice = (body: Record<string, unknown>) => ({ lines: [servicesLine()], ...body })
  return {
    seller: (input: Partial<BusinessInput> = {}) => germanSeller(harness(), input),
    client: (s: Seller, extra: Record<string, unknown> = {}) => harness().client(s.key, { ...GERMAN_BUYER, ...extra }),
    draft: (s: Seller, clientId: number, body: Record<string, unknown> = {}) =>
      draftFor(harness(), sellerSetup(s, clientId), invoice(body)),
    issued: (s: Seller, clientId: number, body: Record<string, unknown> = {}) =>
      issuedFor(harness(), sellerSetup(s, clientId), invoice(body)),
    xmlOf: (s: Seller, id: number, key = s.key) => xmlOf(harness(), s, id, key),
    exported: (s: Seller, id: number) => exportedXml(harness(), s, id, xsdErrors),
  }
}
