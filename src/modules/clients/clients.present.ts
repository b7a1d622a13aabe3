// A Client as the API answers it.
import { currencyScale } from '../../shared/currencies'
import { Dec, format } from '../../shared/money'
import type { ClientRow } from './clients.repo'

/** The Client's own electronic address, else EM with its email (extensions §3). */
export function electronicAddressOf(
  c: Pick<ClientRow, 'electronicAddressScheme' | 'electronicAddress' | 'email'>,
): { scheme: string; value: string } | null {
  if (c.electronicAddressScheme && c.electronicAddress)
    return { scheme: c.electronicAddressScheme, value: c.electronicAddress }
  return c.email ? { scheme: 'EM', value: c.email } : null
}

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
    electronic_address: electronicAddressOf(c),
    buyer_reference: c.buyerReference,
    reminders: c.reminders,
    language: c.language,
  }
}
