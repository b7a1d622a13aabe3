// Bank statements in the application (extensions §15): upload a CAMT.053 or CAMT.054 file, see what it matched, and
// match the entries left unmatched by hand, each on an issued document still owing in its currency.
import { MAX_STATEMENT_BYTES } from '../../../../modules/banking'
import type { InBusiness, FormState } from '../../context'
import { FormInput } from '../../form-input'
import type { AppKit } from '../../kit'
import { Layout } from '../../layout'
import { esc, Notice, PostForm, Refused } from '../../ui'
import { Money, Pager, TYPE_WORDS } from './words'
import { RecordsTable, type Column } from '../../list'

interface EntryItem {
  id: number
  booked_on: string | null
  amount: string
  currency: string
  counterparty: string | null
  remittance: string | null
  reference: string | null
}

interface OwingDocument {
  id: number
  type: string
  document_number: string | null
  currency: string
  amount_due: string
  client: { name: string }
}

/** The issued Invoices and Proformas still owing (at most 100 of each status), for the match forms to offer. */
async function owingDocuments(kit: AppKit, c: InBusiness): Promise<OwingDocument[]> {
  const out: OwingDocument[] = []
  for (const status of ['issued', 'partially_paid'])
    out.push(...(await kit.list<OwingDocument>(c, 'documents_list', { status, limit: '100' })).data)
  return out.filter((d) => d.type === 'invoice' || d.type === 'proforma')
}

/** The unmatched entries' columns: what the bank booked, and a form matching it with a document owing its currency. */
function entryColumns(c: InBusiness, owing: OwingDocument[]): Column<EntryItem>[] {
  return [
    { head: 'Booked', nowrap: true, cell: (e) => esc(e.booked_on ?? '') },
    { head: 'Amount', num: true, cell: (e) => <Money amount={e.amount} currency={e.currency} /> },
    { head: 'From', cell: (e) => esc(e.counterparty ?? '') },
    { head: 'Text', cell: (e) => esc([e.reference, e.remittance].filter(Boolean).join(' · ')) },
    { head: 'Match with', cell: (e) => <MatchForm c={c} entry={e} owing={owing} /> },
  ]
}

function MatchForm({ c, entry: e, owing }: { c: InBusiness; entry: EntryItem; owing: OwingDocument[] }): JSX.Element {
  const choices = owing.filter((d) => d.currency === e.currency)
  if (choices.length === 0) return <span class="muted">No document owes {esc(e.currency)}.</span>
  return (
    <PostForm action={`${c.base}/bank/entries/${e.id}/match`} token={c.csrf} class="row">
      <label class="sr" for={`doc-${e.id}`}>
        Document
      </label>
      <select name="document_id" id={`doc-${e.id}`}>
        {choices.map((d) => (
          <option value={String(d.id)}>
            {esc(`${TYPE_WORDS[d.type] ?? d.type} ${d.document_number ?? ''} · ${d.client.name} · ${d.amount_due} due`)}
          </option>
        ))}
      </select>
      <button type="submit">Match</button>
    </PostForm>
  )
}

async function BankPage({ kit, c, state }: { kit: AppKit; c: InBusiness; state: FormState }): Promise<string> {
  const page = await kit.list<EntryItem>(c, 'bank_entries_unmatched')
  const owing = page.data.length ? await owingDocuments(kit, c) : []
  return (
    <Layout c={c} title="Bank" section="bank">
      <Notice text={c.notice} />
      <h1>Bank statements</h1>
      <p class="lead">
        Upload a statement from your bank (ISO 20022 CAMT.053, or a CAMT.054 notification; at most 10 MB). Each credit
        that names a document by its payment reference or number records its Payment and Receipt; the rest is listed
        below to match by hand. A file imported twice records nothing new.
      </p>
      <div class="card">
        <PostForm action={`${c.base}/bank/import`} token={c.csrf} enctype="multipart/form-data" id="bank-import">
          <Refused state={state} shown={['file', 'account']} />
          <label>
            Statement file (XML)
            <input type="file" name="statement" accept=".xml,application/xml,text/xml" required />
          </label>
          <div class="row">
            <button type="submit">Import the statement</button>
          </div>
        </PostForm>
      </div>
      <h2>Unmatched entries</h2>
      <RecordsTable
        id="unmatched"
        columns={entryColumns(c, owing)}
        rows={page.data}
        empty="Nothing to match: every credit imported found its document."
        rowAttributes={(e) => ({ 'data-entry': String(e.id) })}
      />
      <Pager next={page.next_cursor} url={c.url} />
    </Layout>
  )
}

export function bankRoutes(kit: AppKit): void {
  const render = (c: InBusiness, state: FormState) => <BankPage kit={kit} c={c} state={state} />
  kit.page('/bank', 'read', render)
  kit.action(
    '/bank/import',
    'change',
    async (c, data) => {
      const file = data.files.get('statement')
      // No file chosen, or one that is not text, is the import's own refusal of the file.
      const xml = file ? new TextDecoder().decode(file) : ''
      await kit.operation(c, 'bank_statements_import', { text: xml })
      return kit.done(c, '/bank', 'statement_imported')
    },
    render,
    { upload: MAX_STATEMENT_BYTES },
  )
  kit.action(
    '/bank/entries/:id/match',
    'change',
    async (c, data) => {
      const form = new FormInput(data)
      await kit.operation(c, 'bank_statement_entries_match', {
        path: { id: c.params.id },
        body: { document_id: form.id('document_id') },
        form,
      })
      return kit.done(c, '/bank', 'entry_matched')
    },
    render,
  )
}
