// Clients: the list with search, create, edit, deactivate and activate again, and a Client's page with its statement
// for a chosen period (with CSV). Every change goes through the clients service with the API's body schema.
import { findClient, presentClient, type ClientRow } from '../../../../modules/clients'
import { clientStatement, parsePeriod } from '../../../../modules/reports'
import { listBankAccounts } from '../../../../modules/business'
import { NotFound } from '../../../../shared/errors'
import type { FormState, InBusiness } from '../../context'
import { FormInput } from '../../form-input'
import type { AppKit } from '../../kit'
import { ID_RULE } from '../../../../platform/operation'
import { CardSection, FormPage, Layout } from '../../layout'
import { esc, Field, Notice, PostForm, Refused, Select } from '../../ui'
import { LANGUAGE_OPTIONS } from '../../../../modules/words'
import { ActionButton, Area, CsvLink, METHOD_WORDS, Money, PageHead, TYPE_WORDS } from './words'
import { PeriodFilter, RecordsTable, type Column } from '../../list'
import { CatalogList, CLIENTS } from './catalog'
import { yearPeriod } from './period'

export async function clientOf(c: InBusiness, id: string): Promise<ClientRow> {
  const row = ID_RULE.test(id) ? await findClient(c.deps.db.read, c.business.id, Number(id)) : undefined
  if (!row) throw new NotFound('No such Client.')
  return row
}

/** A language as the list offers it ("German (Deutsch)"). */
function languageName(lang: string): string {
  return LANGUAGE_OPTIONS.find(([l]) => l === lang)?.[1] ?? lang
}

/** The form's fields as the API's create or update body (blank fields: not sent on create, cleared on update). */
function clientBody(data: URLSearchParams, update: boolean): { input: FormInput; body: Record<string, unknown> } {
  const f = new FormInput(data)
  const t = (n: string) => (update ? f.nullable(n) : f.text(n))
  return {
    input: f,
    body: {
      name: t('name'),
      legal_name: t('legal_name'),
      email: f.text('email') ?? (update ? undefined : ''),
      country: f.text('country')?.toUpperCase() ?? (update ? undefined : ''),
      contact_person: t('contact_person'),
      phone: t('phone'),
      address: t('address'),
      city: t('city'),
      postal_code: t('postal_code'),
      vat_number: t('vat_number'),
      account_code: f.text('account_code'),
      currency: f.text('currency')?.toUpperCase(),
      payment_terms: f.int('payment_terms'),
      credit_limit: update ? f.nullable('credit_limit') : f.text('credit_limit'),
      notes: t('notes'),
      preferred_bank_account_ids: f.ids('preferred_bank_account_ids'),
      // A checkbox sends nothing when cleared: the marker says the form offered it.
      reminders: f.data.has('reminders__present') ? f.checked('reminders') : undefined,
      // Blank: the Business's language (cleared to null on update).
      language: update ? f.nullable('language') : f.text('language'),
    },
  }
}

async function ClientForm({
  c,
  state,
  client,
}: {
  c: InBusiness
  state: FormState
  client: ClientRow | null
}): Promise<string> {
  const v = client ? presentClient(client) : null
  const accounts = await listBankAccounts(c.deps.db.read, c.business.id, 0, 100)
  const chosen = new Set(
    state.values
      ? state.values.getAll('preferred_bank_account_ids').map(Number)
      : (v?.preferred_bank_account_ids ?? []),
  )
  const action = client ? `${c.base}/clients/${client.id}` : `${c.base}/clients`
  return (
    <PostForm action={action} token={c.csrf}>
      <Refused
        state={state}
        shown={[
          'name',
          'legal_name',
          'email',
          'country',
          'contact_person',
          'phone',
          'address',
          'city',
          'postal_code',
          'vat_number',
          'account_code',
          'currency',
          'payment_terms',
          'credit_limit',
          'notes',
          'language',
        ]}
      />
      <div class="grid2">
        <Field
          name="name"
          label="Name"
          state={state}
          value={v?.name}
          maxlength={255}
          hint="How you know the Client; blank takes the legal name."
        />
        <Field name="legal_name" label="Legal name" state={state} value={v?.legal_name} maxlength={255} />
        <Field
          name="email"
          label="Email"
          type="email"
          state={state}
          value={v?.email}
          required
          maxlength={255}
          hint="Where documents are sent."
        />
        <Field
          name="country"
          label="Country (2 letters)"
          state={state}
          value={v?.country}
          required
          maxlength={2}
          placeholder="DE"
        />
        <Field name="contact_person" label="Contact person" state={state} value={v?.contact_person} maxlength={255} />
        <Field name="phone" label="Phone" state={state} value={v?.phone} maxlength={50} />
        <Field name="address" label="Address" state={state} value={v?.address} />
        <Field name="city" label="City" state={state} value={v?.city} maxlength={100} />
        <Field name="postal_code" label="Postal code" state={state} value={v?.postal_code} maxlength={20} />
        <Field
          name="vat_number"
          label="VAT number"
          state={state}
          value={v?.vat_number}
          hint="Checked with VIES when saved."
        />
        <Field
          name="account_code"
          label="Account code"
          state={state}
          value={v?.account_code}
          maxlength={100}
          hint="Blank takes the next code of your numbering."
        />
        <Field
          name="currency"
          label="Currency"
          state={state}
          value={v?.currency ?? c.business.currency}
          maxlength={3}
        />
        <Field
          name="payment_terms"
          label="Payment terms (days)"
          type="number"
          state={state}
          value={v ? String(v.payment_terms) : '30'}
        />
        <Field
          name="credit_limit"
          label="Credit limit"
          state={state}
          value={v?.credit_limit}
          hint="In the Client's currency; blank for none."
        />
        <Select
          name="language"
          label="Language of documents"
          state={state}
          value={v?.language ?? ''}
          options={[['', `The Business’s (${languageName(c.business.language)})`], ...LANGUAGE_OPTIONS]}
          hint="Its PDFs, page and emails are written in it; issued documents keep the language they were issued in."
        />
      </div>
      {accounts.length ? (
        <fieldset class="checks">
          <legend class="legend">Preferred bank accounts</legend>
          <input type="hidden" name="preferred_bank_account_ids__present" value="1" />
          {accounts.map((a) => (
            <label>
              <input
                type="checkbox"
                name="preferred_bank_account_ids"
                value={String(a.id)}
                checked={chosen.has(a.id)}
              />{' '}
              {esc(a.name)} ({esc(a.iban)})
            </label>
          ))}
        </fieldset>
      ) : (
        ''
      )}
      <label class="check">
        <input type="hidden" name="reminders__present" value="1" />
        <input
          type="checkbox"
          name="reminders"
          checked={state.values ? state.values.get('reminders') === 'on' : (v?.reminders ?? true)}
        />{' '}
        Payment reminders: email this Client the Business’s reminders of documents overdue
      </label>
      <Area name="notes" label="Notes" state={state} value={v?.notes} />
      <div class="row">
        <button type="submit">{client ? 'Save the Client' : 'Create the Client'}</button>
        <a href={esc(client ? `${c.base}/clients/${client.id}` : `${c.base}/clients`)}>Cancel</a>
      </div>
    </PostForm>
  )
}

/** The Clients list's columns: each Client's name opens its page. */
function clientColumns(c: InBusiness): Column<ClientRow>[] {
  return [
    { head: 'Name', key: true, cell: (r) => <a href={esc(`${c.base}/clients/${r.id}`)}>{esc(r.name)}</a> },
    { head: 'Email', cell: (r) => esc(r.email) },
    { head: 'Country', cell: (r) => esc(r.country) },
    { head: 'Account code', cell: (r) => esc(r.accountCode) },
    {
      head: 'Status',
      cell: (r) => (r.isActive ? <span class="tag ok">Active</span> : <span class="tag">Inactive</span>),
    },
  ]
}

export function clientsRoutes(kit: AppKit): void {
  kit.page('/clients', 'read', (c) => <CatalogList kit={kit} c={c} of={CLIENTS} columns={clientColumns(c)} />)

  const newPage = (c: InBusiness, state: FormState) => (
    <FormPage c={c} title="New client" section="clients">
      <ClientForm c={c} state={state} client={null} />
    </FormPage>
  )
  kit.page('/clients/new', 'change', (c, state) => newPage(c, state))
  kit.action(
    '/clients',
    'change',
    async (c, data) => {
      const { input, body } = clientBody(data, false)
      const row = await kit.operation<{ id: number }>(c, 'clients_create', { body, form: input })
      return kit.done(c, `/clients/${row.id}`, 'client_created')
    },
    newPage,
  )

  // The edit page and the save's refusal alike: the Client of the path's id.
  const editPage = async (c: InBusiness, state: FormState) => {
    const client = await clientOf(c, c.params.id!)
    return (
      <FormPage c={c} title={`Edit ${client.name}`} section="clients">
        <ClientForm c={c} state={state} client={client} />
      </FormPage>
    )
  }
  kit.page('/clients/:id/edit', 'change', editPage)
  kit.action(
    '/clients/:id',
    'change',
    async (c, data) => {
      const client = await clientOf(c, c.params.id!)
      const { input, body } = clientBody(data, true)
      await kit.operation(c, 'clients_update', { path: { client: client.id }, body, form: input })
      return kit.done(c, `/clients/${client.id}`, 'saved')
    },
    editPage,
  )
  kit.action(
    '/clients/:id/active',
    'change',
    async (c, data) => {
      const client = await clientOf(c, c.params.id!)
      await kit.operation(c, 'clients_update', {
        path: { client: client.id },
        body: { is_active: data.get('active') === 'true' },
      })
      return kit.done(
        c,
        `/clients/${client.id}`,
        data.get('active') === 'true' ? 'client_activated' : 'client_deactivated',
      )
    },
    (c, state) => clientPage(c, state),
  )

  kit.page('/clients/:id', 'read', (c, state) => clientPage(c, state))
}

type StatementLine = Awaited<ReturnType<typeof clientStatement>>['currencies'][number]['lines'][number]

/** A statement's columns in one currency: each document or Payment, its debit or credit and the balance after it. */
function statementColumns(currency: string): Column<StatementLine>[] {
  const amount = (a: string | null) => (a ? <Money amount={a} currency={currency} /> : '')
  return [
    {
      head: 'Entry',
      key: true,
      cell: (l) => (
        <>
          {l.kind === 'payment' ? 'Payment' : esc(TYPE_WORDS[l.document_type ?? ''] ?? l.document_type ?? '')}{' '}
          {esc(l.number)}
          {l.prepaid ? ' (prepaid on its Proforma)' : ''}
        </>
      ),
    },
    { head: 'Date', nowrap: true, cell: (l) => esc(l.date) },
    // A Payment's description is its method as the API writes it (bank_transfer): shown in words.
    {
      head: 'Description',
      cell: (l) => esc(l.kind === 'payment' ? (METHOD_WORDS[l.description] ?? l.description) : l.description),
    },
    { head: 'Debit', num: true, cell: (l) => amount(l.debit) },
    { head: 'Credit', num: true, cell: (l) => amount(l.credit) },
    { head: 'Balance', num: true, cell: (l) => <Money amount={l.balance} currency={currency} /> },
  ]
}

async function clientPage(c: InBusiness, state: FormState): Promise<string> {
  const id = c.url.pathname.split('/').filter(Boolean)[4]!
  const client = await clientOf(c, id)
  const v = presentClient(client)
  const q = c.url.searchParams
  let period = yearPeriod(c)
  let periodError: string | null = null
  if (q.has('from') || q.has('to')) {
    try {
      period = parsePeriod({ from: q.get('from') ?? '', to: q.get('to') ?? '' })
    } catch (e) {
      periodError = e instanceof Error ? e.message : 'The period is not valid.'
    }
  }
  const st = await clientStatement(c.deps.db.read, c.business.id, client.id, period)
  const csv = `${c.base}/reports/statement.csv?client_id=${client.id}&from=${period.from}&to=${period.to}`
  return (
    <Layout c={c} title={client.name} section="clients">
      <Notice text={c.notice} />
      <Refused state={state} />
      <PageHead c={c} title={client.name} tag={client.isActive ? undefined : <span class="tag">Inactive</span>}>
        <a class="button quiet" href={esc(`${c.base}/clients/${client.id}/edit`)}>
          Edit
        </a>
        <a class="button" href={esc(`${c.base}/documents/new?type=invoice&client_id=${client.id}`)}>
          New invoice
        </a>
      </PageHead>
      <div class="card">
        <dl class="facts">
          <dt>Legal name</dt>
          <dd>{esc(v.legal_name ?? '—')}</dd>
          <dt>Email</dt>
          <dd>{esc(v.email ?? '—')}</dd>
          <dt>Address</dt>
          <dd>{esc([v.address, v.postal_code, v.city, v.country].filter(Boolean).join(', '))}</dd>
          <dt>VAT number</dt>
          <dd>
            {esc(v.vat_number ?? '—')}{' '}
            {v.vat_number ? (
              v.vat_verified ? (
                <span class="tag ok">confirmed by VIES</span>
              ) : (
                <span class="tag">not confirmed</span>
              )
            ) : (
              ''
            )}
          </dd>
          <dt>Account code</dt>
          <dd>{esc(v.account_code ?? '—')}</dd>
          <dt>Currency, terms</dt>
          <dd>
            {esc(v.currency)}, {v.payment_terms} days
          </dd>
          <dt>Credit limit</dt>
          <dd>{v.credit_limit ? <Money amount={v.credit_limit} currency={v.currency} /> : '—'}</dd>
          {v.notes ? (
            <>
              <dt>Notes</dt>
              <dd>{esc(v.notes)}</dd>
            </>
          ) : (
            ''
          )}
        </dl>
        <div class="row actions">
          <a href={esc(`${c.base}/documents?client_id=${client.id}`)}>Documents of this Client</a>
          <ActionButton
            c={c}
            path={`/clients/${client.id}/active`}
            label={client.isActive ? 'Deactivate' : 'Activate again'}
            quiet
            id="client-active"
          />
        </div>
      </div>
      <CardSection id="st-h" title="Statement">
        <PeriodFilter action={`${c.base}/clients/${client.id}`} period={period}>
          <CsvLink href={csv} />
        </PeriodFilter>
        {periodError ? <p class="notice bad">{esc(periodError)}</p> : ''}
        {st.currencies.length === 0 ? <p class="muted flush">Nothing in this period.</p> : ''}
        {st.currencies.map((cur) => (
          <RecordsTable
            caption={
              <>
                {esc(cur.currency)}: opening balance <Money amount={cur.opening_balance} currency={cur.currency} />,
                closing balance <Money amount={cur.closing_balance} currency={cur.currency} />
              </>
            }
            columns={statementColumns(cur.currency)}
            rows={cur.lines}
          />
        ))}
      </CardSection>
    </Layout>
  )
}
