// Business and bank account records as the API answers them (extensions §2).
import type { BankAccountRow, BusinessRow } from './business.service'

/** `mailProvider` is the mail module's answer (`mailProviderView`): the one rule of which provider sends. */
export function presentBusiness(b: BusinessRow, mailProvider: { kind: string; address: string } | null) {
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
    ...einvoiceIdentity(b),
    einvoice_format: b.einvoiceFormat,
    // Only the kind and the From address are shown, never the server or its login.
    mail_provider: mailProvider,
    has_logo: b.logoType !== null,
    brand_color: b.brandColor,
    language: b.language,
    created_at: b.createdAt,
  }
}

export function presentBankAccount(a: BankAccountRow) {
  return { id: a.id, name: a.name, iban: a.iban, bic: a.bic, currency: a.currency, created_at: a.createdAt }
}

/**
 * The Business's e-invoice identity, as the API shows it and a document's seller snapshot keeps it. The defaults the
 * e-invoices write when none is set: EM with the Business email, and that email as contact's.
 */
export function einvoiceIdentity(b: BusinessRow) {
  return {
    electronic_address:
      b.electronicAddressScheme && b.electronicAddress
        ? { scheme: b.electronicAddressScheme, value: b.electronicAddress }
        : b.email
          ? { scheme: 'EM', value: b.email }
          : null,
    contact: { name: b.contactName, phone: b.contactPhone, email: b.contactEmail ?? b.email },
    tax_registration_id: b.taxRegistrationId,
  }
}
