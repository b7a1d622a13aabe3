// The four reports as CSV (RFC 4180, CRLF, UTF-8), written from the very objects the API answers, so every figure is
// the API's to the cent. Amounts stay decimal strings with a dot; text a person typed that a spreadsheet would run as
// a formula (=, +, -, @, tab, CR first) is prefixed with a quote.
import type { IncomeReport, OverdueReport, Statement, VatReport } from './reports.model'

/** A typed text cell: quoted when it holds a comma, quote or line break; defused when it would start a formula. */
export function textCell(v: string | null | undefined): string {
  let s = v ?? ''
  if (s.length > 1 && /^[=+\-@\t\r]/.test(s)) s = `'${s}`
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

/** A cell the service wrote itself (amounts, dates, codes, counts): never a formula, quoted only if it must be. */
function cell(v: string | number | boolean | null | undefined): string {
  const s = v === null || v === undefined ? '' : String(v)
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

function csv(lines: string[][]): string {
  return lines.map((l) => l.join(',')).join('\r\n') + '\r\n'
}

export function incomeCsv(r: IncomeReport): string {
  return csv([
    ['currency', 'from', 'to', 'income', 'vat', 'other_currency_documents'],
    [cell(r.currency), cell(r.from), cell(r.to), cell(r.income), cell(r.vat), cell(r.other_currency_documents)],
  ])
}

/** One row per band, highest rate first, then the totals with the other-currency count. */
export function vatCsv(r: VatReport): string {
  return csv([
    ['currency', 'from', 'to', 'category', 'rate', 'net', 'vat', 'other_currency_documents'],
    ...r.bands.map((b) => [
      cell(r.currency),
      cell(r.from),
      cell(r.to),
      cell(b.category),
      cell(b.rate),
      cell(b.net),
      cell(b.vat),
      '',
    ]),
    [
      cell(r.currency),
      cell(r.from),
      cell(r.to),
      'total',
      '',
      cell(r.net),
      cell(r.vat),
      cell(r.other_currency_documents),
    ],
  ])
}

/** One row per Client, largest amount due first, then the totals with the other-currency count. */
export function overdueCsv(r: OverdueReport): string {
  return csv([
    ['currency', 'as_of', 'client_id', 'name', 'documents', 'amount_due', 'other_currency_documents'],
    ...r.clients.map((c) => [
      cell(r.currency),
      cell(r.as_of),
      cell(c.client_id),
      textCell(c.name),
      cell(c.documents),
      cell(c.amount_due),
      '',
    ]),
    [cell(r.currency), cell(r.as_of), '', 'total', cell(r.count), cell(r.amount_due), cell(r.other_currency_documents)],
  ])
}

/** Per currency: the opening balance, every entry by date with its running balance, the closing balance. */
export function statementCsv(r: Statement): string {
  const head = [
    'client_id',
    'currency',
    'date',
    'kind',
    'document_type',
    'number',
    'description',
    'debit',
    'credit',
    'balance',
    'prepaid',
  ]
  const out: string[][] = [head]
  for (const c of r.currencies) {
    out.push([
      cell(r.client_id),
      cell(c.currency),
      cell(r.from),
      'opening_balance',
      '',
      '',
      '',
      '',
      '',
      cell(c.opening_balance),
      '',
    ])
    for (const l of c.lines) {
      out.push([
        cell(r.client_id),
        cell(c.currency),
        cell(l.date),
        cell(l.kind),
        cell(l.document_type),
        textCell(l.number),
        textCell(l.description),
        cell(l.debit),
        cell(l.credit),
        cell(l.balance),
        cell(l.prepaid),
      ])
    }
    out.push([
      cell(r.client_id),
      cell(c.currency),
      cell(r.to),
      'closing_balance',
      '',
      '',
      '',
      '',
      '',
      cell(c.closing_balance),
      '',
    ])
  }
  return csv(out)
}

/** A file name for a report's CSV: the report and its period, nothing a header could be broken with. */
export function csvFileName(report: string, from: string | null, to: string | null): string {
  return `${report}${from ? `-${from}` : ''}${to ? `-${to}` : ''}.csv`.replace(/[^A-Za-z0-9._-]/g, '_')
}
