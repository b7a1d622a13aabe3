// Settings → Bank accounts: the accounts documents show for payment; added here or with the CLI.
import { listBankAccounts } from '../../../../modules/business'
import type { FormState, InBusiness } from '../../context'
import type { AppKit } from '../../kit'
import { Field, Notice, PostForm, Refused, When, esc } from '../../ui'
import { SettingsLayout } from './index'

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
        <div class="table-wrap">
          <table class="stacked">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">IBAN</th>
                <th scope="col">BIC</th>
                <th scope="col">Currency</th>
                <th scope="col">Added</th>
              </tr>
            </thead>
            <tbody>
              {accounts.map((a) => (
                <tr>
                  <td class="key">{esc(a.name)}</td>
                  <td data-label="IBAN">
                    <code>{esc(a.iban)}</code>
                  </td>
                  <td data-label="BIC">{esc(a.bic ?? '—')}</td>
                  <td data-label="Currency">{esc(a.currency ?? 'any')}</td>
                  <td data-label="Added">
                    <When at={a.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <section class="card" aria-labelledby="add-account">
        <h2 id="add-account" class="flush">
          Add a bank account
        </h2>
        <Refused state={form} shown={['name', 'iban', 'bic', 'currency']} />
        <PostForm action={`${c.base}/settings/bank-accounts`} token={c.csrf}>
          <Field name="name" label="Name" state={form} required maxlength={100} hint="e.g. Main account" />
          <Field name="iban" label="IBAN" state={form} required maxlength={42} />
          <Field name="bic" label="BIC (optional)" state={form} maxlength={11} />
          <Field name="currency" label="Currency (optional, e.g. EUR)" state={form} maxlength={3} />
          <div>
            <button type="submit">Add account</button>
          </div>
        </PostForm>
      </section>
    </SettingsLayout>
  )
}

export function bankAccountsSettings(kit: AppKit): void {
  const render = (c: InBusiness, form: FormState) => <BankAccountsPage c={c} form={form} />
  kit.page('/settings/bank-accounts', 'settings', render)
  kit.action(
    '/settings/bank-accounts',
    'manage',
    async (c, d) => {
      const opt = (k: string) => (d.get(k)?.trim() ? d.get(k)!.trim() : null)
      await kit.operation(c, 'bank_accounts_create', {
        body: {
          name: d.get('name') ?? '',
          iban: d.get('iban') ?? '',
          bic: opt('bic'),
          currency: opt('currency')?.toUpperCase() ?? null,
        },
      })
      return kit.done(c, '/settings/bank-accounts', 'bank_account_added')
    },
    render,
  )
}
