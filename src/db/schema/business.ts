// The Business aggregate: the tenant, its API keys, bank accounts and numberings.
import { sqliteTable, integer, text, uniqueIndex, index, primaryKey, blob } from 'drizzle-orm/sqlite-core'
import { KEY_ROLES } from '../../shared/roles'
import { businessId, businessIdKey, businessRow, id, timestamps } from './columns'

export const businesses = sqliteTable('businesses', {
  id: id(),
  publicId: text('public_id').notNull().unique(),
  name: text('name').notNull(),
  legalName: text('legal_name'),
  country: text('country').notNull(),
  currency: text('currency').notNull(),
  vatNumber: text('vat_number'),
  companyId: text('company_id'),
  isVatPayer: integer('is_vat_payer', { mode: 'boolean' }).notNull().default(true),
  isTest: integer('is_test', { mode: 'boolean' }).notNull().default(false),
  plan: text('plan', { enum: ['free', 'pro', 'pro_plus', 'paused'] })
    .notNull()
    .default('pro'),
  email: text('email'),
  address: text('address'),
  city: text('city'),
  postalCode: text('postal_code'),
  /** BT-34: the Seller's electronic address (EAS scheme and value); null takes EM with the Business email. */
  electronicAddressScheme: text('electronic_address_scheme'),
  electronicAddress: text('electronic_address'),
  /** BG-6: the Seller contact XRechnung asks for (BR-DE-5/6/7); the email defaults to the Business email. */
  contactName: text('contact_name'),
  contactPhone: text('contact_phone'),
  contactEmail: text('contact_email'),
  /** BT-32: the Seller's tax registration identifier (a Non-VAT Payer's tax number). */
  taxRegistrationId: text('tax_registration_id'),
  /** What a Send attaches: ubl, cii, xrechnung-ubl, xrechnung-cii, peppol or facturx. */
  einvoiceFormat: text('einvoice_format').notNull().default('ubl'),
  /** Branding on every PDF: `#RRGGBB` or null. */
  brandColor: text('brand_color'),
  /** The logo's media type (image/png or image/jpeg), null when there is none; its bytes sit in business_logos. */
  logoType: text('logo_type'),
  /** Invoices a Test business (or Free plan) may issue per calendar year. */
  issuingLimit: integer('issuing_limit').notNull().default(100),
  /** The language of its documents and emails (extensions §18) where a Client names none. */
  language: text('language').notNull().default('en'),
  /** Set by `invoicing business delete`: no credential or session acts for it and nothing more is sent about it; its
   * records stay in the file (legal retention). */
  deletedAt: text('deleted_at'),
  ...timestamps(),
})

/** A Business's logo (at most 1 MB), apart from the Business row so that reading a Business never reads the image. */
export const businessLogos = sqliteTable('business_logos', {
  businessId: businessIdKey(),
  bytes: blob('bytes', { mode: 'buffer' }).notNull(),
})

export const apiKeys = sqliteTable(
  'api_keys',
  {
    ...businessRow(),
    name: text('name').notNull(),
    role: text('role', { enum: KEY_ROLES }).notNull(),
    /** The visible start of the key, so a person can tell keys apart; never enough to use it. */
    prefix: text('prefix').notNull(),
    /** SHA-256 of the whole key; the key itself is never stored. */
    keyHash: text('key_hash').notNull(),
    createdAt: text('created_at').notNull(),
    revokedAt: text('revoked_at'),
  },
  (t) => [uniqueIndex('api_keys_hash').on(t.keyHash), index('api_keys_business').on(t.businessId)],
)

export const bankAccounts = sqliteTable(
  'bank_accounts',
  {
    ...businessRow(),
    name: text('name').notNull(),
    iban: text('iban').notNull(),
    bic: text('bic'),
    currency: text('currency'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('bank_accounts_business').on(t.businessId, t.id)],
)

export const numberingKinds = ['invoice', 'proforma', 'credit_note', 'quote', 'receipt', 'client'] as const
export type NumberingKind = (typeof numberingKinds)[number]

/** Which numbering a row is of: the Business, the kind of record numbered, and the pattern its numbers follow. */
function numbering() {
  return {
    businessId: businessId(),
    kind: text('kind', { enum: numberingKinds }).notNull(),
    pattern: text('pattern').notNull(),
  }
}

/** A Business's pattern per kind; a kind with no row uses the default pattern. */
export const numberings = sqliteTable('numberings', numbering(), (t) => [
  primaryKey({ columns: [t.businessId, t.kind] }),
])

/** Highest counter value taken per Business, kind, pattern and year ('' when the pattern has no {YYYY}). */
export const numberCounters = sqliteTable(
  'number_counters',
  {
    ...numbering(),
    period: text('period').notNull(),
    highest: integer('highest').notNull(),
  },
  (t) => [primaryKey({ columns: [t.businessId, t.kind, t.pattern, t.period] })],
)
