// Settings → Business setup: the name, legal name, VAT status and address documents carry; the branding of the PDFs
// (logo and colour); and what the e-invoices say of the seller (extensions §2 and §3). The plan is billing's. Every
// change goes through the same services as the CLI (updateBusiness, setBusinessLogo), whose field errors are shown
// under their fields.
import { businessLogo, type BusinessInput } from '../../../../modules/business'
import { LANGUAGE_OPTIONS } from '../../../../modules/words'
import { EAS_CODES, EINVOICE_FORMATS } from '../../../../shared/einvoice-formats'
import { NotFound } from '../../../../shared/errors'
import type { FormState, InBusiness } from '../../context'
import type { PostedForm } from '../../http'
import type { AppKit } from '../../kit'
import { Field, Notice, Refused, Select, esc } from '../../ui'
import { ButtonForm, FieldsForm, Section } from '../../settings-parts'
import { SettingsLayout, settingsPage } from './index'

/** Every field of the setup form, named as the service's field errors name them. */
const FIELDS = [
  'name',
  'legal_name',
  'email',
  'vat_number',
  'company_id',
  'address',
  'city',
  'postal_code',
  'country',
  'currency',
  'brand_color',
  'electronic_address_scheme',
  'electronic_address',
  'contact.name',
  'contact.phone',
  'contact.email',
  'tax_registration_id',
  'einvoice_format',
  'language',
] as const

/** EAS codes people look for most, named; every other code of the list follows by its number. */
const NAMED_SCHEMES: ReadonlyArray<readonly [string, string]> = [
  ['EM', 'EM · email address'],
  ['0088', '0088 · GLN (Global Location Number)'],
  ['9930', '9930 · German VAT number'],
  ['0204', '0204 · Leitweg-ID (German public buyers)'],
  ['0060', '0060 · DUNS number'],
  ['0002', '0002 · SIRENE (France)'],
  ['0009', '0009 · SIRET (France)'],
  ['9957', '9957 · French VAT number'],
  ['0208', '0208 · Belgian enterprise number'],
  ['9925', '9925 · Belgian VAT number'],
  ['0106', '0106 · Dutch Chamber of Commerce (KvK) number'],
  ['9944', '9944 · Dutch VAT number'],
  ['9915', '9915 · Austrian VAT number'],
  ['9920', '9920 · Spanish VAT number'],
  ['0211', '0211 · Italian VAT number (Partita IVA)'],
  ['0007', '0007 · Swedish organisation number'],
  ['0192', '0192 · Norwegian organisation number'],
  ['0184', '0184 · Danish CVR number'],
  ['0151', '0151 · Australian Business Number (ABN)'],
]
const SCHEME_OPTIONS: ReadonlyArray<readonly [string, string]> = [
  ['', 'None: the Business email (EM)'],
  ...NAMED_SCHEMES,
  ...[...EAS_CODES]
    .filter((code) => !NAMED_SCHEMES.some(([c]) => c === code))
    .sort()
    .map((code) => [code, code] as const),
]

const FORMAT_WORDS: Record<string, string> = {
  ubl: 'EN 16931 UBL (the default)',
  cii: 'EN 16931 CII',
  'xrechnung-ubl': 'XRechnung 3.0 (UBL)',
  'xrechnung-cii': 'XRechnung 3.0 (CII)',
  peppol: 'Peppol BIS Billing 3.0',
  facturx: 'Factur-X / ZUGFeRD PDF',
}
const FORMAT_OPTIONS = EINVOICE_FORMATS.map((f) => [f, FORMAT_WORDS[f] ?? f] as const)

/** A square of the brand colour beside its field: an SVG fill, since the page's CSP allows no inline style. */
function Swatch({ color }: { color: string | null }): JSX.Element {
  if (!color || !/^#[0-9A-Fa-f]{6}$/.test(color)) return ''
  return (
    <svg class="swatch" width="28" height="28" viewBox="0 0 28 28" role="img" aria-label={`Brand colour ${esc(color)}`}>
      <rect x="1" y="1" width="26" height="26" rx="4" fill={esc(color)} stroke="#aeb6c2" />
    </svg>
  )
}

function LogoCard({ c, form }: { c: InBusiness; form: FormState }): JSX.Element {
  const b = c.business
  const errors = form.errors.logo ?? []
  return (
    <Section id="logo-h" title="Logo" sectionId="logo" titleClass="flush-top">
      <p class="muted flush-top">
        At the top left of every document and Receipt PDF. A PNG or JPEG image of at most 1 MB.
      </p>
      {b.logoType ? (
        <div class="logo-now">
          <img
            src={esc(`${c.base}/settings/business/logo?v=${encodeURIComponent(b.updatedAt)}`)}
            alt="The current logo"
            class="logo-preview"
            id="logo-preview"
          />
        </div>
      ) : (
        <p class="muted" id="no-logo">
          No logo yet: the PDFs carry the Business name alone.
        </p>
      )}
      <FieldsForm
        action={`${c.base}/settings/business/logo`}
        token={c.csrf}
        enctype="multipart/form-data"
        id="logo-form"
        submit="Upload the logo"
      >
        <div class={errors.length ? 'field bad' : 'field'}>
          <label for="f-logo">{b.logoType ? 'Replace it with' : 'Image file'}</label>
          <input
            id="f-logo"
            name="logo"
            type="file"
            accept="image/png,image/jpeg"
            required
            aria-invalid={errors.length ? 'true' : undefined}
            aria-describedby={errors.length ? 'f-logo-err' : undefined}
          />
          {errors.length ? (
            <p class="err" id="f-logo-err">
              {esc(errors.join('; '))}
            </p>
          ) : (
            ''
          )}
        </div>
      </FieldsForm>
      {b.logoType ? (
        <ButtonForm
          action={`${c.base}/settings/business/logo/remove`}
          token={c.csrf}
          kind="danger"
          id="remove-logo"
          label="Remove the logo"
        />
      ) : (
        ''
      )}
    </Section>
  )
}

function BusinessPage({ c, form }: { c: InBusiness; form: FormState }): JSX.Element {
  const b = c.business
  // The checkbox as posted when this form was refused (a refused logo upload posted none of these fields).
  const payer = form.values?.has('name') ? form.values.get('is_vat_payer') === 'on' : b.isVatPayer
  const color = form.values?.get('brand_color') ?? b.brandColor
  return (
    <SettingsLayout c={c} title="Business setup" path="/business">
      <h1>Business setup</h1>
      <p class="lead">What your documents say about {esc(b.name)}. Issued documents keep what they said when issued.</p>
      <Notice text={c.notice} />
      <Refused state={form} shown={[...FIELDS, 'logo']} />
      <LogoCard c={c} form={form} />
      <div class="card">
        <FieldsForm action={`${c.base}/settings/business`} token={c.csrf} id="business-form" submit="Save">
          <h2 class="flush">The Business</h2>
          <Field name="name" label="Name" state={form} value={b.name} required maxlength={255} />
          <Field name="legal_name" label="Legal name" state={form} value={b.legalName} maxlength={255} />
          <Field
            name="email"
            label="Email address"
            type="email"
            state={form}
            value={b.email}
            maxlength={255}
            hint="Documents are sent from it through the service’s mail server when the Business has no mailbox of its own."
          />
          <div class="field">
            <label>
              <input type="checkbox" name="is_vat_payer" checked={payer} /> Registered for VAT
            </label>
          </div>
          <Field name="vat_number" label="VAT number" state={form} value={b.vatNumber} maxlength={50} />
          <Field
            name="company_id"
            label="Company registration number"
            state={form}
            value={b.companyId}
            maxlength={100}
            hint="The legal registration number (commercial register, SIREN, KvK…)."
          />
          <Field
            name="address"
            label="Street address"
            state={form}
            value={b.address}
            maxlength={1000}
            autocomplete="street-address"
          />
          <Field name="city" label="City" state={form} value={b.city} maxlength={100} />
          <Field name="postal_code" label="Postal code" state={form} value={b.postalCode} maxlength={20} />
          <Field
            name="country"
            label="Country (two letters, e.g. DE)"
            state={form}
            value={b.country}
            required
            maxlength={2}
          />
          <Field
            name="currency"
            label="Reporting currency (e.g. EUR)"
            state={form}
            value={b.currency}
            required
            maxlength={3}
          />
          <Select
            name="language"
            label="Language of documents"
            state={form}
            value={b.language}
            options={LANGUAGE_OPTIONS}
            hint="PDFs, the Client’s page and emails are written in it, unless a Client has a language of its own."
          />

          <h2 class="flush">Brand colour</h2>
          <div class="with-swatch">
            <Field
              name="brand_color"
              label="Colour of the PDFs’ top band and titles"
              state={form}
              value={b.brandColor}
              maxlength={7}
              placeholder="#1F6FEB"
              hint="Written #RRGGBB. Blank: the plain look."
            />
            <Swatch color={color} />
          </div>

          <h2 class="flush">E-invoices</h2>
          <p class="muted flush">What the XML e-invoices (and Factur-X) say of your Business as the seller.</p>
          <div class="grid2">
            <Select
              name="electronic_address_scheme"
              label="Electronic address: scheme"
              state={form}
              value={b.electronicAddressScheme ?? ''}
              options={SCHEME_OPTIONS}
              hint="The CEF EAS code of the address (BT-34)."
            />
            <Field
              name="electronic_address"
              label="Electronic address: identifier"
              state={form}
              value={b.electronicAddress}
              maxlength={200}
              hint="Blank with no scheme: EM with the Business email."
            />
          </div>
          <div class="grid3">
            <Field
              name="contact.name"
              label="Contact name"
              state={form}
              value={b.contactName}
              maxlength={255}
              autocomplete="name"
            />
            <Field
              name="contact.phone"
              label="Contact phone"
              state={form}
              value={b.contactPhone}
              maxlength={50}
              autocomplete="tel"
            />
            <Field
              name="contact.email"
              label="Contact email"
              type="email"
              state={form}
              value={b.contactEmail}
              maxlength={255}
              hint="Blank: the Business email."
            />
          </div>
          <Field
            name="tax_registration_id"
            label="Tax registration id (BT-32)"
            state={form}
            value={b.taxRegistrationId}
            maxlength={100}
            hint="A Non-VAT Payer’s tax number, carried on its e-invoices."
          />
          <Select
            name="einvoice_format"
            label="E-invoice attached when a document is sent"
            state={form}
            value={b.einvoiceFormat}
            options={FORMAT_OPTIONS}
          />
        </FieldsForm>
      </div>
    </SettingsLayout>
  )
}

/** A blank optional field clears it, as the CLI's `--email ""` does; a field not on the form keeps its value. */
const blankIsNull = (v: string | null) => (v === null ? undefined : v.trim() === '' ? null : v.trim())

function businessInput(d: PostedForm): BusinessInput {
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
    brandColor: blankIsNull(d.get('brand_color')),
    contactName: blankIsNull(d.get('contact.name')),
    contactPhone: blankIsNull(d.get('contact.phone')),
    contactEmail: blankIsNull(d.get('contact.email')),
    taxRegistrationId: blankIsNull(d.get('tax_registration_id')),
    einvoiceFormat: d.get('einvoice_format')?.trim() || undefined,
    language: d.get('language')?.trim() || undefined,
  }
  // Scheme and identifier are set and cleared together (the service refuses one without the other); both blank clear.
  const scheme = blankIsNull(d.get('electronic_address_scheme'))
  const value = blankIsNull(d.get('electronic_address'))
  if (scheme !== undefined || value !== undefined) {
    input.electronicAddressScheme = scheme ?? null
    input.electronicAddress = value ?? null
  }
  return input
}

export function businessSettings(kit: AppKit): void {
  const page = settingsPage(kit, '/settings/business', (c, form) => <BusinessPage c={c} form={form} />)
  page.change('', 'business_update', 'saved', (d) => ({ body: businessInput(d) as Record<string, unknown> }))
  page.change('/logo', 'business_set_logo', 'logo_saved', (d) => ({ body: { bytes: d.files.get('logo') } }), {
    upload: true,
  })
  page.change('/logo/remove', 'business_set_logo', 'logo_removed', () => ({ body: { remove: true } }))
  // The logo as stored, for the page to show (the settings' people only; the PDFs read it themselves).
  kit.download('/settings/business/logo', 'settings', async (c) => {
    const logo = await businessLogo(c.deps.db.read, c.business)
    if (!logo) throw new NotFound('This Business has no logo.')
    return new Response(Buffer.from(logo.bytes), {
      headers: { 'content-type': logo.type, 'content-disposition': 'inline; filename="logo"' },
    })
  })
}
