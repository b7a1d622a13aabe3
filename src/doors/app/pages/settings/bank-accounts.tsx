// Settings → Bank accounts: the accounts documents show for payment; added here or with the CLI.
import { listBankAccounts } from '../../../../modules/business'
import type { FormState, InBusiness } from '../../context'
import type { AppKit } from '../../kit'
import { Field, Notice, Refused, When, esc } from '../../ui'
import { FieldsForm, Section } from '../../settings-parts'
import { RecordsTable } from '../../list'
import { SettingsLayout, settingsPage } from './index'

async function BankAccountsPage({ c, form }: { c: InBusiness; form: FormState }): Promise<string> {
  const accounts = await listBankAccounts(c.deps.db.read, c.business.id, 0, 100)
  return (
    <SettingsLayout c={c} title="Bank accounts" path="/bank-accounts">
      <h1>Bank accounts</h1>
      <p class="lead">Where Clients pay; documents show them.</p>
      <Notice text={c.notice} />
      {accounts.length === 0 ? (
        <p class="muted">No bank accounts yet.</p>
      ) : (
        <RecordsTable
          rows={accounts}
          columns={[
            { head: 'Name', key: true, cell: (a) => esc(a.name) },
            { head: 'IBAN', cell: (a) => <code>{esc(a.iban)}</code> },
            { head: 'BIC', cell: (a) => esc(a.bic ?? '—') },
            { head: 'Currency', cell: (a) => esc(a.currency ?? 'any') },
            { head: 'Added', cell: (a) => <When at={a.createdAt} /> },
          ]}
        />
      )}
      <Section id="add-account" title="Add a bank account">
        <Refused state={form} shown={['name', 'iban', 'bic', 'currency']} />
        <FieldsForm action={`${c.base}/settings/bank-accounts`} token={c.csrf} submit="Add account">
          <Field name="name" label="Name" state={form} required maxlength={100} hint="e.g. Main account" />
          <Field name="iban" label="IBAN" state={form} required maxlength={42} />
          <Field name="bic" label="BIC (optional)" state={form} maxlength={11} />
          <Field name="currency" label="Currency (optional, e.g. EUR)" state={form} maxlength={3} />
        </FieldsForm>
      </Section>
    </SettingsLayout>
  )
}

export function bankAccountsSettings(kit: AppKit): void {
  const page = settingsPage(kit, '/settings/bank-accounts', (c, form) => <BankAccountsPage c={c} form={form} />)
  page.change('', 'bank_accounts_create', 'bank_account_added', (d) => {
    const opt = (k: string) => (d.get(k)?.trim() ? d.get(k)!.trim() : null)
    return {
      body: {
        name: d.get('name') ?? '',
        iban: d.get('iban') ?? '',
        bic: opt('bic'),
        currency: opt('currency')?.toUpperCase() ?? null,
      },
    }
  })
}
