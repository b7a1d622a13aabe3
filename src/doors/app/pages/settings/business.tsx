// Settings → Business setup: the name, legal name, VAT status and address documents carry. The plan is billing's.
import { updateBusiness, type BusinessInput } from '../../../../modules/business'
import type { FormState, InBusiness } from '../../context'
import type { AppKit } from '../../kit'
import { Field, Notice, PostForm, Refused, esc } from '../../ui'
import { SettingsLayout } from './index'

const FIELDS = ['name', 'legal_name', 'email', 'vat_number', 'company_id', 'address', 'city', 'postal_code', 'country', 'currency'] as const

function BusinessPage({ c, form }: { c: InBusiness; form: FormState }): JSX.Element {
  const b = c.business
  const payer = form.values ? form.values.get('is_vat_payer') === 'on' : b.isVatPayer
  return (
    <SettingsLayout c={c} title="Business setup" path="/business">
      <h1>Business setup</h1>
      <p class="lead">What your documents say about {esc(b.name)}. Issued documents keep what they said when issued.</p>
      <Notice text={c.notice} />
      <Refused state={form} shown={[...FIELDS]} />
      <div class="card">
        <PostForm action={`${c.base}/settings/business`} token={c.csrf}>
          <Field name="name" label="Name" state={form} value={b.name} required maxlength={255} />
          <Field name="legal_name" label="Legal name" state={form} value={b.legalName} maxlength={255} />
          <Field name="email" label="Email address" type="email" state={form} value={b.email} maxlength={255} hint="Documents are sent from it through the service’s mail server when the Business has no mailbox of its own." />
          <div class="field">
            <label>
              <input type="checkbox" name="is_vat_payer" checked={payer} /> Registered for VAT
            </label>
          </div>
          <Field name="vat_number" label="VAT number" state={form} value={b.vatNumber} maxlength={50} />
          <Field name="company_id" label="Company registration number" state={form} value={b.companyId} maxlength={100} />
          <Field name="address" label="Street address" state={form} value={b.address} maxlength={1000} autocomplete="street-address" />
          <Field name="city" label="City" state={form} value={b.city} maxlength={100} />
          <Field name="postal_code" label="Postal code" state={form} value={b.postalCode} maxlength={20} />
          <Field name="country" label="Country (two letters, e.g. DE)" state={form} value={b.country} required maxlength={2} />
          <Field name="currency" label="Reporting currency (e.g. EUR)" state={form} value={b.currency} required maxlength={3} />
          <div>
            <button type="submit">Save</button>
          </div>
        </PostForm>
      </div>
    </SettingsLayout>
  )
}

/** A blank optional field clears it, as the CLI's `--email ""` does. */
const blankIsNull = (v: string | null) => (v === null ? undefined : v.trim() === '' ? null : v.trim())

export function businessSettings(kit: AppKit): void {
  const render = (c: InBusiness, form: FormState) => <BusinessPage c={c} form={form} />
  kit.page('/settings/business', 'settings', render)
  kit.action(
    '/settings/business',
    'manage',
    async (c, d) => {
      const input: BusinessInput = {
        name: d.get('name') ?? '',
        legalName: blankIsNull(d.get('legal_name')),
        email: blankIsNull(d.get('email')),
        vatNumber: blankIsNull(d.get('vat_number')),
        companyId: blankIsNull(d.get('company_id')),
        address: blankIsNull(d.get('address')),
        city: blankIsNull(d.get('city')),
        postalCode: blankIsNull(d.get('postal_code')),
        country: (d.get('country') ?? '').trim().toUpperCase(),
        currency: (d.get('currency') ?? '').trim().toUpperCase(),
        isVatPayer: d.get('is_vat_payer') === 'on',
      }
      await updateBusiness(c.deps.db, c.deps.clock, c.business.id, input)
      return kit.done(c, '/settings/business', 'saved')
    },
    render,
  )
}
