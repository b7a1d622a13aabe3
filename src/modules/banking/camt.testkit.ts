// Test kit: ISO 20022 bank-to-customer files built from the schemas' element names, for every version the import
// takes: a CAMT.053 statement (BkToCstmrStmt/Stmt) or a CAMT.054 notification (BkToCstmrDbtCdtNtfctn/Ntfctn).
// Versions differ where the import reads them: the entry status is a plain code up to 001.05 and `Sts/Cd` from 001.06;
// a related party's name is `Dbtr/Nm` up to 001.07 and `Dbtr/Pty/Nm` in 001.08.

export interface TestEntry {
  amount: string
  currency?: string
  /** CRDT unless false (DBIT). */
  credit?: boolean
  status?: 'BOOK' | 'PDNG' | 'INFO'
  bookedOn?: string
  /** The structured creditor reference (RmtInf/Strd/CdtrRefInf/Ref). */
  structured?: string
  /** Unstructured remittance lines (RmtInf/Ustrd). */
  text?: string[]
  debtor?: string
  /** The bank's reference of the entry (AcctSvcrRef); none when null. */
  entryRef?: string | null
}

export interface TestFile {
  kind?: '053' | '054'
  /** 2 to 8: camt.05x.001.0N. */
  version: number
  iban: string
  entries: TestEntry[]
  from?: string
  to?: string
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

let refs = 0

function entryXml(e: TestEntry, version: number): string {
  const status = e.status ?? 'BOOK'
  const party = e.debtor
    ? version >= 8
      ? `<RltdPties><${e.credit === false ? 'Cdtr' : 'Dbtr'}><Pty><Nm>${esc(e.debtor)}</Nm></Pty></${e.credit === false ? 'Cdtr' : 'Dbtr'}></RltdPties>`
      : `<RltdPties><${e.credit === false ? 'Cdtr' : 'Dbtr'}><Nm>${esc(e.debtor)}</Nm></${e.credit === false ? 'Cdtr' : 'Dbtr'}></RltdPties>`
    : ''
  const strd = e.structured
    ? `<Strd><CdtrRefInf><Tp><CdOrPrtry><Cd>SCOR</Cd></CdOrPrtry><Issr>ISO</Issr></Tp><Ref>${esc(e.structured)}</Ref></CdtrRefInf></Strd>`
    : ''
  const ustrd = (e.text ?? []).map((t) => `<Ustrd>${esc(t)}</Ustrd>`).join('')
  const rmt = strd || ustrd ? `<RmtInf>${ustrd}${strd}</RmtInf>` : ''
  const entryRef = e.entryRef === undefined ? `BANKREF-${++refs}-${Date.now()}` : e.entryRef
  const day = e.bookedOn ?? '2026-03-09'
  return `<Ntry>
      ${entryRef === null ? '' : `<NtryRef>${esc(entryRef)}</NtryRef>`}
      <Amt Ccy="${e.currency ?? 'EUR'}">${e.amount}</Amt>
      <CdtDbtInd>${e.credit === false ? 'DBIT' : 'CRDT'}</CdtDbtInd>
      ${version >= 6 ? `<Sts><Cd>${status}</Cd></Sts>` : `<Sts>${status}</Sts>`}
      <BookgDt><Dt>${day}</Dt></BookgDt>
      <ValDt><Dt>${day}</Dt></ValDt>
      ${entryRef === null ? '' : `<AcctSvcrRef>${esc(entryRef)}</AcctSvcrRef>`}
      <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
      <NtryDtls><TxDtls>
        <Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs>
        <Amt Ccy="${e.currency ?? 'EUR'}">${e.amount}</Amt>
        <CdtDbtInd>${e.credit === false ? 'DBIT' : 'CRDT'}</CdtDbtInd>
        ${party}
        ${rmt}
      </TxDtls></NtryDtls>
    </Ntry>`
}

/** The file's XML, with the namespace of its message and version. */
export function camtFile(f: TestFile): string {
  const kind = f.kind ?? '053'
  const ns = `urn:iso:std:iso:20022:tech:xsd:camt.${kind}.001.0${f.version}`
  const [root, report] = kind === '053' ? ['BkToCstmrStmt', 'Stmt'] : ['BkToCstmrDbtCdtNtfctn', 'Ntfctn']
  const from = f.from ?? '2026-03-01'
  const to = f.to ?? '2026-03-09'
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="${ns}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <${root}>
    <GrpHdr><MsgId>MSG-${++refs}</MsgId><CreDtTm>${to}T18:00:00</CreDtTm></GrpHdr>
    <${report}>
      <Id>${kind === '053' ? 'STMT' : 'NTFCTN'}-${refs}</Id>
      <CreDtTm>${to}T18:00:00</CreDtTm>
      <FrToDt><FrDtTm>${from}T00:00:00</FrDtTm><ToDtTm>${to}T23:59:59</ToDtTm></FrToDt>
      <Acct><Id><IBAN>${f.iban}</IBAN></Id><Ccy>EUR</Ccy></Acct>
      ${
        kind === '053'
          ? `<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">0.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>${from}</Dt></Dt></Bal>`
          : ''
      }
      ${f.entries.map((e) => entryXml(e, f.version)).join('\n')}
    </${report}>
  </${root}>
</Document>`
}
