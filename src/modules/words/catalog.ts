// The shape of one language's message catalog: every fixed word a Client reads on a PDF, the public page or an email.

/** The languages documents and emails are written in (extensions §18). */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pl', 'pt'] as const
export type Language = (typeof LANGUAGES)[number]

export function isLanguage(v: unknown): v is Language {
  return typeof v === 'string' && (LANGUAGES as readonly string[]).includes(v)
}

/**
 * The first of the eight languages a browser's Accept-Language asks for (`de-AT,de;q=0.9,en;q=0.5` is German), by its
 * weights; English when it names none of them. For a page that has no document, and so no document's language.
 */
export function readerLanguage(acceptLanguage: string | null | undefined): Language {
  let best: Language = 'en'
  let bestWeight = 0
  for (const part of (acceptLanguage ?? '').split(',').slice(0, 20)) {
    const [tag, ...params] = part.trim().split(';')
    const primary = tag!.trim().split('-')[0]!.toLowerCase()
    const q = params.map((p) => /^\s*q\s*=\s*([01](\.\d{0,3})?)\s*$/.exec(p)).find(Boolean)
    const weight = q ? Number(q[1]) : 1
    if (isLanguage(primary) && weight > bestWeight) {
      best = primary
      bestWeight = weight
    }
  }
  return best
}

/** The one refusal text of a `language` field, wherever it is sent (API, MCP, application, CLI). */
export const LANGUAGE_FAULT = `must be one of ${LANGUAGES.join(', ')}`

export type TitledType = 'invoice' | 'proforma' | 'credit_note' | 'quote'

/** The statuses a document's public page can show. */
export type PageStatus = 'issued' | 'partially_paid' | 'paid' | 'cancelled'

/**
 * One language's words. Plain strings are labels; functions are sentences, given their figures already formatted
 * (dates, amounts and percentages are the formatters' in words.ts, so a catalog holds words and word order only).
 */
export interface Catalog {
  /**
   * The Intl locale of dates and numbers; null keeps the service's international forms (ISO dates, `1234.56 EUR`),
   * which English documents have always shown.
   */
  locale: string | null
  /** Document types as titles: "Invoice", "Rechnung". */
  titles: Record<TitledType, string>
  receipt: string
  /** The marks across a page. */
  sample: string
  draft: string
  void: string

  // The document PDF.
  /** The number's label ("No."), and what stands for it on a Draft. */
  no: string
  draftNumber: string
  issueDate: string
  dueDate: string
  deliveryDate: string
  /** "Credits Invoice X of DATE" on a Credit Note; `date` is null when the Invoice has none. */
  credits: (number: string, date: string | null) => string
  billTo: string
  creditTo: string
  /** The label before a VAT number ("VAT DE123…") and a company registration number. */
  vatId: string
  companyId: string
  description: string
  quantity: string
  unitPrice: string
  /** The tax's short name: VAT, USt., TVA, IVA, btw. */
  vat: string
  net: string
  netTotal: string
  vatTotal: string
  total: string
  paid: string
  amountDue: string
  /** A VAT band: "VAT 19% on 100.00" (`what` the band's words, `net` its net amount). */
  band: (what: string, net: string) => string
  /** The VAT category words each country's law expects on the document. */
  vatRate: (percent: string) => string
  zeroRated: (percent: string) => string
  exempt: string
  reverseCharge: string
  intraEu: string
  export: string
  notSubject: string
  /** The short forms of a Line's VAT column. */
  short: { exempt: string; reverseCharge: string; intraEu: string; export: string; notSubject: string }
  reverseChargeNote: string
  /**
   * A document in another currency states its VAT in the Business's (extensions §16): "VAT in EUR: 19.45 (1 USD =
   * 0.9123 EUR)"; `vat` and `rate` already formatted.
   */
  vatInAccounting: (currency: string, vat: string, from: string, rate: string) => string
  pleasePay: (amount: string, date: string) => string
  /** Paying by bank transfer (extensions §15): the reference's label, and what the EPC QR code is for (PDF, page). */
  paymentReference: string
  scanToPay: string
  scanToPayAmount: (amount: string, iban: string) => string

  // The Receipt PDF.
  receiptNumber: string
  issued: string
  receivedFrom: string
  paymentDate: string
  amount: string
  method: string
  reference: string
  for: string
  /** "Invoice X (total 119.00 EUR)". */
  receiptFor: (title: string, number: string, total: string) => string
  methods: Record<'bank_transfer' | 'cash' | 'check' | 'credit_card' | 'debit_card' | 'other', string>
  receiptVoid: (date: string) => string
  paidInFull: string

  // The public page.
  from: string
  to: string
  issuedOn: (date: string) => string
  dueOn: (date: string) => string
  cancelled: string
  sampleNote: string
  /** The document's status as its Client reads it (the page shows no Draft). */
  statuses: Record<PageStatus, string>
  /** The heading of the bank details, the link to the PDF, and what the EPC QR code is to a screen reader. */
  payByTransfer: string
  downloadPdf: string
  qrLabel: string
  /** The page of a link that opens no document, in the language the reader's browser asks for. */
  notFoundTitle: string
  notFound: string

  // Emails.
  hello: string
  kindRegards: string
  viewOnline: (url: string) => string
  sendSubject: (title: string, number: string, business: string) => string
  /** The Send's default text: `due` is the formatted due date of an Invoice or Proforma, else null. */
  sendText: (title: string, number: string, date: string, amount: string, due: string | null) => string
  reminderSubject: (title: string, number: string, business: string) => string
  /** `due` the due date (null: none), `overdue` whether it has passed, `open` the amount still due. */
  reminderText: (
    title: string,
    number: string,
    date: string,
    amount: string,
    due: string | null,
    overdue: boolean,
    open: string,
  ) => string
  reminderAttached: string
  receiptSubject: (number: string, business: string) => string
  receiptThanks: (amount: string, date: string, title: string, number: string) => string
  receiptAttached: string
}

/** The languages as the application (in English) offers them in a list. */
export const LANGUAGE_OPTIONS: ReadonlyArray<readonly [Language, string]> = [
  ['en', 'English'],
  ['de', 'German (Deutsch)'],
  ['fr', 'French (français)'],
  ['es', 'Spanish (español)'],
  ['it', 'Italian (italiano)'],
  ['nl', 'Dutch (Nederlands)'],
  ['pl', 'Polish (polski)'],
  ['pt', 'Portuguese (português)'],
]
