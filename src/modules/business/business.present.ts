// Business and bank account records as the API answers them (extensions §2).
import type { BankAccountRow, BusinessRow } from './business.service'

/** The Business's own mailbox as the answer needs it (kind and From address; its server URL is never shown). */
export interface MailboxSummary {
  kind: string
  fromAddress: string
}

export function presentBusiness(b: BusinessRow, mailRelay: string | null, mailbox: MailboxSummary | null = null) {
  return {
    business_id: b.publicId,
    name: b.name,
    legal_name: b.legalName,
    country: b.country,
    currency: b.currency,
    // A Non-VAT Payer's VAT number is shown nowhere.
    vat_number: b.isVatPayer ? b.vatNumber : null,
    company_id: b.companyId,
    is_vat_payer: b.isVatPayer,
    is_test: b.isTest,
    plan: b.plan,
    email: b.email,
    address: b.address,
    city: b.city,
    postal_code: b.postalCode,
    // Its own mailbox sends when it has one (smtp, or a hosted kind); else the service's own mail server, for a
    // Business with an address of its own. Only the kind and the From address are shown, never the server or login.
    mail_provider: mailbox ? { kind: mailbox.kind, address: mailbox.fromAddress } : mailRelay && b.email ? { kind: 'service', address: b.email } : null,
    created_at: b.createdAt,
  }
}

export function presentBankAccount(a: BankAccountRow) {
  return { id: a.id, name: a.name, iban: a.iban, bic: a.bic, currency: a.currency, created_at: a.createdAt }
}
