// The EPC QR code to pay by SEPA credit transfer (EPC069-12 "SCT", version 002, UTF-8): when a document carries one
// (extensions §15), what it says, and its module matrix, drawn by the PDF writer and the public page alike.
// The matrix comes from the `qrcode` library's encoder core (its renderers, which pull in a PNG writer, are not loaded).
// The encoder is required on the first code drawn, not at start: a server that draws none never evaluates it.
type Encode = (segments: Array<{ data: string; mode: 'byte' }>, options: { errorCorrectionLevel: 'M' }) => unknown
let create: Encode | undefined
const encode: Encode = (segments, options) => {
  create ??= (require('qrcode/lib/core/qrcode.js') as { create: Encode }).create
  return create(segments, options)
}
import { Dec } from './money'

/** What a banking app fills the transfer with. */
export interface EpcPayment {
  bic: string
  name: string
  iban: string
  /** Euros, two decimals. */
  amount: string
  /** The ISO 11649 reference, written as the structured remittance. */
  reference: string
}

/** The facts of a document that decide whether it carries a code, and what the code says. */
export interface EpcFacts {
  type: string
  status: string
  currency: string
  /** The amount due now, decimal text. */
  amountDue: string
  reference: string | null
  /** The Business's name, as the beneficiary. */
  name: string
  /** The bank accounts the document shows, the first one with an IBAN is paid to. */
  accounts: ReadonlyArray<{ iban: string | null; bic: string | null }>
}

/** EPC069-12 takes at most 999,999,999.99 euros in one transfer. */
const MAX_AMOUNT = new Dec('999999999.99')

/**
 * The payment the code asks for, or null where §15 puts none: a Draft, Quote or Credit Note, a paid or cancelled
 * document, another currency than the euro, nothing due, no reference, or no account with an IBAN.
 */
export function epcPaymentOf(f: EpcFacts): EpcPayment | null {
  if (f.type !== 'invoice' && f.type !== 'proforma') return null
  if (f.status !== 'issued' && f.status !== 'partially_paid') return null
  if (f.currency !== 'EUR' || f.reference === null) return null
  const due = new Dec(f.amountDue)
  if (due.lte('0') || due.gt(MAX_AMOUNT)) return null
  const account = f.accounts.find((a) => a.iban)
  if (!account) return null
  return {
    bic: account.bic ?? '',
    // At most 70 characters (code points, not UTF-16 units).
    name: [...f.name.replace(/[\r\n]+/g, ' ').trim()].slice(0, 70).join(''),
    iban: account.iban!.replace(/ /g, '').toUpperCase(),
    amount: due.toFixed(2),
    reference: f.reference,
  }
}

/** The code's text: one element a line, in EPC069-12's order; the trailing empty elements left out. */
export function epcPayload(p: EpcPayment): string {
  return [
    'BCD', // service tag
    '002', // version: the BIC may be empty within the EEA
    '1', // character set: UTF-8
    'SCT', // SEPA credit transfer
    p.bic,
    p.name,
    p.iban,
    `EUR${p.amount}`,
    '', // purpose
    p.reference, // structured remittance (the unstructured line stays empty: one or the other)
  ].join('\n')
}

/** A QR code's modules: `size` × `size`, dark where `dark(row, col)`. */
export interface QrMatrix {
  size: number
  dark(row: number, col: number): boolean
}

/** The matrix of the code, error correction level M as EPC069-12 asks, the text in byte mode (UTF-8). */
export function qrMatrix(text: string): QrMatrix {
  const qr = encode([{ data: text, mode: 'byte' }], { errorCorrectionLevel: 'M' }) as {
    modules: { size: number; data: Uint8Array }
  }
  const { size, data } = qr.modules
  return { size, dark: (row, col) => data[row * size + col] === 1 }
}

/** The matrix as one SVG path (a unit square per dark module), a quiet zone of four modules around it. */
export function qrSvg(m: QrMatrix, pixels: number, label: string): string {
  const full = m.size + 8
  let d = ''
  for (let r = 0; r < m.size; r++) for (let c = 0; c < m.size; c++) if (m.dark(r, c)) d += `M${c + 4} ${r + 4}h1v1h-1z`
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${label}" width="${pixels}" height="${pixels}" viewBox="0 0 ${full} ${full}" shape-rendering="crispEdges"><rect width="${full}" height="${full}" fill="#fff"/><path fill="#000" d="${d}"/></svg>`
}
