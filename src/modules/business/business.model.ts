// TypeBox models of the Business setup and bank accounts (extensions §2).
import { t } from 'elysia'
import { Bool, Int, Nullable, Paged, Timestamp } from '../../http/schemas'

export const BusinessSchema = t.Object(
  {
    business_id: t.String({ format: 'uuid' }),
    name: t.String(),
    legal_name: Nullable(t.String()),
    country: t.String({ pattern: '^[A-Z]{2}$' }),
    currency: t.String({ pattern: '^[A-Z]{3}$' }),
    vat_number: Nullable(t.String()),
    company_id: Nullable(t.String()),
    is_vat_payer: Bool(),
    is_test: Bool(),
    plan: t.String({ description: 'free, pro, pro_plus or paused' }),
    email: Nullable(t.String()),
    address: Nullable(t.String()),
    city: Nullable(t.String()),
    postal_code: Nullable(t.String()),
    mail_provider: Nullable(t.Object({ kind: t.String({ description: 'service, smtp, google or microsoft' }), address: Nullable(t.String()) })),
    has_logo: Bool(),
    brand_color: Nullable(t.String({ pattern: '^#[0-9A-Fa-f]{6}$' })),
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
