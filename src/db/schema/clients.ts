// The Client aggregate: who a Business invoices.
import { sqliteTable, integer, text, index, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { businessRow, timestamps } from './columns'

export const clients = sqliteTable(
  'clients',
  {
    ...businessRow(),
    name: text('name').notNull(),
    legalName: text('legal_name'),
    contactPerson: text('contact_person'),
    email: text('email'),
    phone: text('phone'),
    address: text('address'),
    city: text('city'),
    postalCode: text('postal_code'),
    country: text('country').notNull(),
    vatNumber: text('vat_number'),
    /** BT-49: the Buyer's electronic address (EAS scheme and value); null takes EM with the Client email. */
    electronicAddressScheme: text('electronic_address_scheme'),
    electronicAddress: text('electronic_address'),
    /** BT-10: the default buyer reference of its documents (a Leitweg-ID, a purchase department code). */
    buyerReference: text('buyer_reference'),
    vatVerified: integer('vat_verified', { mode: 'boolean' }).notNull().default(false),
    accountCode: text('account_code'),
    currency: text('currency').notNull(),
    paymentTerms: integer('payment_terms').notNull().default(30),
    isActive: integer('is_active', { mode: 'boolean' }).notNull().default(true),
    /** Canonical decimal string with two decimals; money never passes through a float. */
    creditLimit: text('credit_limit'),
    notes: text('notes'),
    /** JSON array of the Business's bank account ids, ascending. */
    preferredBankAccountIds: text('preferred_bank_account_ids').notNull().default('[]'),
    /** false keeps every document of the Client out of automatic payment reminders (extensions §14). */
    reminders: integer('reminders', { mode: 'boolean' }).notNull().default(true),
    /** Lower-cased name, legal name, email, VAT number and account code, for case-blind search in any script. */
    searchText: text('search_text').notNull().default(''),
    /** The language of its documents and emails (extensions §18); null takes the Business's. */
    language: text('language'),
    ...timestamps(),
  },
  (t) => [
    index('clients_business').on(t.businessId, t.id),
    uniqueIndex('clients_account_code').on(t.businessId, t.accountCode),
  ],
)
