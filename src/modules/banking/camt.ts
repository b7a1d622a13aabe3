// Reads an ISO 20022 bank statement (CAMT.053, versions 001.02 to 001.08) or debit/credit notification (CAMT.054,
// the same versions) into the entries the import matches (extensions §15). The parser is fast-xml-parser, which never
// fetches anything; a file that declares a DTD or an entity is refused before it is parsed at all, so neither an
// external entity (XXE) nor an entity expansion ("billion laughs") is ever read.
import { lazyXmlParser, validateXml } from '../../shared/xml-parser'
import { InvalidRequest } from '../../shared/errors'
import { timeSlices } from '../../shared/turns'

/** The largest file taken (extensions §15). */
export const MAX_STATEMENT_BYTES = 10 * 1024 * 1024

export interface CamtEntry {
  /** Booking date (YYYY-MM-DD), or the value date when the bank gave none. */
  bookedOn: string | null
  /** Decimal text as the bank wrote it. */
  amount: string
  currency: string
  credit: boolean
  /** Status BOOK; a pending (PDNG) or informational (INFO) entry is not money received yet. */
  booked: boolean
  counterparty: string | null
  /** The unstructured remittance lines, joined by a space (and the entry's additional information when none). */
  remittance: string | null
  /** The structured creditor reference (`Strd/CdtrRefInf/Ref`), as written. */
  structuredReference: string | null
  /** The bank's own reference of the entry (`AcctSvcrRef`), else `NtryRef`, else the transaction's. */
  entryReference: string | null
}

export interface CamtFile {
  /** `camt.053.001.08` and the like. */
  message: string
  /** The account's IBAN (every statement of the file names the same one). */
  iban: string
  statementRef: string | null
  from: string | null
  to: string | null
  entries: CamtEntry[]
}

const KINDS: Record<string, string> = { '053': 'BkToCstmrStmt', '054': 'BkToCstmrDbtCdtNtfctn' }
const REPEATED = new Set(['Stmt', 'Ntfctn', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd', 'Strd', 'CdtrRefInf'])

const parser = lazyXmlParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  removeNSPrefix: true,
  // Every value stays text: an amount is never read as a JS number, a reference of digits keeps its leading zeros.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => REPEATED.has(name),
})

type Node = Record<string, unknown>

function fileFault(message: string): never {
  throw new InvalidRequest({ file: [message] })
}

/** A child element by its path of local names; undefined when any step is missing. */
function at(node: unknown, ...path: string[]): unknown {
  let n = node
  for (const step of path) {
    if (n === null || typeof n !== 'object') return undefined
    n = Array.isArray(n) ? (n[0] as Node | undefined)?.[step] : (n as Node)[step]
  }
  return Array.isArray(n) ? n[0] : n
}

/** An element's text (an element with attributes keeps it under #text); null when absent or empty. */
function textOf(node: unknown): string | null {
  if (node === undefined || node === null) return null
  if (typeof node === 'string') return node.trim() || null
  if (typeof node === 'object' && '#text' in (node as Node)) return textOf((node as Node)['#text'])
  return null
}

function list(node: unknown): Node[] {
  if (node === undefined || node === null) return []
  return (Array.isArray(node) ? node : [node]) as Node[]
}

/** A date element (`Dt`, or `DtTm` whose day is taken). */
function dayOf(node: unknown): string | null {
  const d = textOf(at(node, 'Dt')) ?? textOf(at(node, 'DtTm'))
  return d && /^\d{4}-\d{2}-\d{2}/.test(d) ? d.slice(0, 10) : null
}

/** The entry's status: a plain code up to version 05, `Sts/Cd` from 06 on. */
function statusOf(ntry: Node): string | null {
  return textOf(ntry.Sts) ?? textOf(at(ntry, 'Sts', 'Cd'))
}

/** The other party's name: the debtor of a credit, the creditor of a debit (`Pty/Nm` from version 08). */
function partyOf(tx: Node | undefined, credit: boolean): string | null {
  if (!tx) return null
  const role = credit ? 'Dbtr' : 'Cdtr'
  return textOf(at(tx, 'RltdPties', role, 'Nm')) ?? textOf(at(tx, 'RltdPties', role, 'Pty', 'Nm'))
}

const AMOUNT = /^[0-9]{1,18}(\.[0-9]{1,5})?$/

function entryOf(ntry: Node): CamtEntry {
  const amt = ntry.Amt
  const amount = textOf(amt)
  const currency = typeof amt === 'object' && amt !== null ? ((amt as Node)['@Ccy'] as string | undefined) : undefined
  if (!amount || !AMOUNT.test(amount) || !currency || !/^[A-Z]{3}$/.test(currency))
    fileFault('an entry (Ntry) has no amount with its currency (Amt Ccy="…")')
  const indicator = textOf(ntry.CdtDbtInd)
  if (indicator !== 'CRDT' && indicator !== 'DBIT') fileFault('an entry (Ntry) is neither CRDT nor DBIT (CdtDbtInd)')
  const credit = indicator === 'CRDT'
  const txs = list(ntry.NtryDtls).flatMap((d) => list(d.TxDtls))
  const lines: string[] = []
  const refs: string[] = []
  for (const tx of txs) {
    for (const rmt of list(tx.RmtInf)) {
      for (const u of list(rmt.Ustrd)) {
        const t = textOf(u)
        if (t) lines.push(t)
      }
      for (const s of list(rmt.Strd))
        for (const c of list(s.CdtrRefInf)) {
          const r = textOf(c.Ref)
          if (r) refs.push(r)
        }
    }
  }
  const extra = textOf(ntry.AddtlNtryInf)
  if (lines.length === 0 && extra) lines.push(extra)
  const first = txs[0]
  return {
    bookedOn: dayOf(ntry.BookgDt) ?? dayOf(ntry.ValDt),
    amount,
    currency,
    credit,
    booked: statusOf(ntry) === 'BOOK',
    counterparty: partyOf(first, credit),
    remittance: lines.length ? lines.join(' ') : null,
    structuredReference: refs[0] ?? null,
    entryReference:
      textOf(ntry.AcctSvcrRef) ?? textOf(ntry.NtryRef) ?? textOf(at(first, 'Refs', 'AcctSvcrRef')) ?? null,
  }
}

/** An entry element, whatever its namespace prefix: entries never nest, so each is cut out and read on its own. */
const NTRY = /<((?:[A-Za-z_][\w.-]*:)?)Ntry\b[^>]*>[\s\S]*?<\/\1Ntry\s*>/g

/** How long reading may hold the thread before it lets other requests in. */
const SLICE_MS = 5
/** Entries parsed at once (fast-xml-parser's cost per call halved the rate when read one by one). */
const BATCH = 25

function wellFormed(xml: string, where: string): void {
  const valid = validateXml(xml)
  if (valid !== true) fileFault(`is not well-formed XML (${where}line ${valid.err.line}: ${valid.err.msg})`)
}

/**
 * The file read, or 422 `invalid_request` naming `file` for anything that is not such a statement. The entries are
 * cut out of the file and checked and parsed a few dozen at a time, the thread let go every few milliseconds: fast-xml-
 * parser takes about a millisecond an entry, and a 10 MB file read in one piece held the server for seconds.
 */
export async function parseCamt(xml: string): Promise<CamtFile> {
  if (Buffer.byteLength(xml, 'utf8') > MAX_STATEMENT_BYTES) fileFault('is larger than 10 MB')
  // Refused before any parsing: a DTD is where entities, external or expanding, are declared.
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) fileFault('declares a DTD or an entity, which a bank statement never does')
  const chunks: string[] = []
  const skeleton = xml.replace(NTRY, (m) => {
    chunks.push(m)
    return ''
  })
  wellFormed(skeleton, '')
  const doc = at(parser().parse(skeleton), 'Document') as Node | undefined
  if (!doc) fileFault('is not an ISO 20022 Document')
  // The parser drops namespace declarations with their prefixes: the message is read from the Document's start tag.
  const tag = /<(?:[A-Za-z_][\w.-]*:)?Document\b[^>]*>/.exec(skeleton)?.[0] ?? ''
  const m =
    /\sxmlns(?::[A-Za-z_][\w.-]*)?\s*=\s*["']urn:iso:std:iso:20022:tech:xsd:camt\.(053|054)\.001\.0([2-8])["']/.exec(
      tag,
    )
  if (!m) fileFault('is not a CAMT.053 or CAMT.054 message of versions 001.02 to 001.08')
  const message = `camt.${m[1]}.001.0${m[2]}`
  const root = (doc as Node)[KINDS[m[1]!]!] as Node | undefined
  if (!root) fileFault(`has no ${KINDS[m[1]!]} in its Document`)
  const reports = list(m[1] === '053' ? root.Stmt : root.Ntfctn)
  if (reports.length === 0) fileFault(`has no ${m[1] === '053' ? 'statement (Stmt)' : 'notification (Ntfctn)'}`)
  const ibans = new Set(
    reports.map((r) =>
      textOf(at(r, 'Acct', 'Id', 'IBAN'))
        ?.replace(/ /g, '')
        .toUpperCase(),
    ),
  )
  if (ibans.has(undefined)) fileFault('names an account without an IBAN (Acct/Id/IBAN)')
  if (ibans.size > 1)
    throw new InvalidRequest({ account: ['the file names more than one account; import one at a time'] })
  const days = (key: 'FrDtTm' | 'ToDtTm') =>
    reports.map((r) => textOf(at(r, 'FrToDt', key))?.slice(0, 10)).filter((d): d is string => !!d)
  const entries: CamtEntry[] = []
  const slice = timeSlices(SLICE_MS)
  // Entries are read BATCH at a time: each parse has a cost of its own, and a few dozen entries are still a short turn.
  for (let i = 0; i < chunks.length; i += BATCH) {
    const batch = `<Ntries>${chunks.slice(i, i + BATCH).join('')}</Ntries>`
    wellFormed(batch, `entries ${i + 1} to ${Math.min(i + BATCH, chunks.length)}: `)
    const parsed = parser().parse(batch) as Node
    for (const ntry of list((parsed.Ntries as Node | undefined)?.Ntry)) entries.push(entryOf(ntry))
    await slice()
  }
  const booked = entries.map((e) => e.bookedOn).filter((d): d is string => d !== null)
  // The period the bank states (FrToDt); a file without one spans its booking dates.
  const from = (days('FrDtTm').length ? days('FrDtTm') : booked).sort()[0] ?? null
  const to = (days('ToDtTm').length ? days('ToDtTm') : booked).sort().at(-1) ?? null
  return {
    message,
    iban: [...ibans][0]!,
    statementRef: textOf(reports[0]!.Id),
    from,
    to,
    entries,
  }
}
