// TypeBox models of the Business setup and bank accounts (extensions §2).
import { Type as t } from '@sinclair/typebox'
import { Bool, Int, Nullable, Paged, Timestamp } from '../../shared/schemas'
import { CurrencyCode } from '../../shared/format-schemas'

export const BusinessSchema = t.Object(
  {
    business_id: t.String({ format: 'uuid' }),
    name: t.String(),
    legal_name: Nullable(t.String()),
    country: t.String({ pattern: '^[A-Z]{2}$' }),
    currency: CurrencyCode,
    vat_number: Nullable(t.String()),
    company_id: Nullable(t.String()),
    is_vat_payer: Bool(),
    is_test: Bool(),
    plan: t.String({ description: 'free, pro, pro_plus or paused' }),
    email: Nullable(t.String()),
    address: Nullable(t.String()),
    city: Nullable(t.String()),
    postal_code: Nullable(t.String()),
    electronic_address: Nullable(
      t.Object(
        {
          scheme: t.String({ description: 'CEF EAS code: 0088 GLN, 9930 German VAT number, EM email, ...' }),
          value: t.String(),
        },
        { description: "BT-34, the Seller's electronic address; default EM with the Business email" },
      ),
    ),
    contact: t.Object(
      {
        name: Nullable(t.String()),
        phone: Nullable(t.String()),
        email: Nullable(t.String({ description: 'default the Business email' })),
      },
      { description: 'BG-6, the Seller contact (XRechnung needs all three)' },
    ),
    tax_registration_id: Nullable(
      t.String({ description: "BT-32, the Seller's tax registration id (a Non-VAT Payer's exports carry it)" }),
    ),
    einvoice_format: t.String({
      description: 'what a Send attaches: ubl, cii, xrechnung-ubl, xrechnung-cii, peppol or facturx',
    }),
    mail_provider: Nullable(
      t.Object({
        kind: t.String({ description: 'service, smtp, google or microsoft' }),
        address: Nullable(t.String()),
      }),
    ),
    has_logo: Bool(),
    brand_color: Nullable(t.String({ pattern: '^#[0-9A-Fa-f]{6}$' })),
    language: t.String({
      description:
        'the language of its documents and emails where a Client names none: en, de, fr, es, it, nl, pl or pt',
    }),
    created_at: Timestamp,
  },
  { title: 'Business' },
)

export const BankAccountSchema = t.Object(
  {
    id: Int(),
    name: t.String(),
    iban: t.String(),
    bic: Nullable(t.String()),
    currency: Nullable(t.String()),
    created_at: Timestamp,
  },
  { title: 'BankAccount' },
)

export const BankAccountList = Paged(BankAccountSchema, 'BankAccountList')
