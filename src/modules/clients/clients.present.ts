// A Client as the API answers it.
import { currencyScale } from '../../shared/currencies'
import { Dec, format } from '../../shared/money'
import type { ClientRow } from './clients.repo'

export function presentClient(c: ClientRow) {
  return {
    id: c.id,
    name: c.name,
    legal_name: c.legalName,
    contact_person: c.contactPerson,
    email: c.email,
    phone: c.phone,
    address: c.address,
    city: c.city,
    postal_code: c.postalCode,
    country: c.country,
    vat_number: c.vatNumber,
    vat_verified: c.vatVerified,
    account_code: c.accountCode,
    currency: c.currency,
    payment_terms: c.paymentTerms,
    is_active: c.isActive,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    credit_limit: c.creditLimit === null ? null : format(new Dec(c.creditLimit), currencyScale(c.currency)),
    notes: c.notes,
    preferred_bank_account_ids: JSON.parse(c.preferredBankAccountIds) as number[],
  }
}
