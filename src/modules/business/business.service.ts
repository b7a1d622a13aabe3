// Business setup, bank accounts and numbering patterns: created and changed by the CLI, read by the API.
import { isEmailAddress } from '../../shared/text'
import { validateBIC, validateIBAN, ValidationErrorsIBAN } from 'ibantools'
import { randomUUID } from 'node:crypto'
import type { Database, Queryable, Tx } from '../../db/client'
import type { HotReader } from '../../db/hot'
import { checkPattern, storePattern } from '../numbering'
import { FieldErrorBag, InvalidRequest, NotFound } from '../../shared/errors'
import { logoFault, logoTypeOf } from './logo'
import type { Clock } from '../../shared/clock'
import { isCountry } from '../../shared/countries'
import { isCurrency } from '../../shared/currencies'
import { isLanguage, LANGUAGE_FAULT } from '../words'
import { EINVOICE_FORMATS, electronicAddressFault, isEInvoiceFormat } from '../../shared/einvoice-formats'
import { journalSellerChange, sellerDetails } from '../journal'
import type { Plan } from './api-keys'
import {
  bankAccountIdsOf,
  bankAccountPage,
  findBankAccount,
  findBusinessById,
  findBusinessByPublicId,
  findLogoBytes,
  putLogoBytes,
  insertBankAccount,
  insertBusiness,
  updateBusinessRow,
  type BankAccountRow,
  type BusinessRow,
} from './business.repo'

export type { BankAccountRow, BusinessRow } from './business.repo'

export const PLANS: readonly Plan[] = ['free', 'pro', 'pro_plus', 'paused']

export interface BusinessInput {
  name?: string
  legalName?: string | null
  country?: string
  currency?: string
  vatNumber?: string | null
  companyId?: string | null
  isVatPayer?: boolean
  email?: string | null
  address?: string | null
  city?: string | null
  postalCode?: string | null
  plan?: string
  isTest?: boolean
  issuingLimit?: number
  electronicAddressScheme?: string | null
  electronicAddress?: string | null
  contactName?: string | null
  contactPhone?: string | null
  contactEmail?: string | null
  taxRegistrationId?: string | null
  einvoiceFormat?: string
  /** `#RRGGBB`, or null to go back to the plain look. */
  brandColor?: string | null
  /** The language of its documents and emails where a Client names none (extensions §18). */
  language?: string
}

export const BRAND_COLOR_RE = /^#[0-9A-Fa-f]{6}$/
export { LOGO_MAX_BYTES, LOGO_MAX_SIDE, logoTypeOf, logoSizeFault, logoFault, logoDimensionsFault } from './logo'

function check(input: BusinessInput, creating: boolean): void {
  const bag = new FieldErrorBag()
  if (creating || input.name !== undefined) if (!input.name?.trim()) bag.add('name', 'is required')
  if (creating || input.country !== undefined)
    if (!input.country || !isCountry(input.country)) bag.add('country', 'must be an ISO 3166-1 alpha-2 code such as DE')
  if (creating || input.currency !== undefined)
    if (!input.currency || !isCurrency(input.currency)) bag.add('currency', 'must be an ISO 4217 code such as EUR')
  if (input.plan !== undefined && !PLANS.includes(input.plan as Plan))
    bag.add('plan', `must be one of ${PLANS.join(', ')}`)
  if (input.email && !isEmailAddress(input.email)) bag.add('email', 'must be an email address')
  if (input.electronicAddress !== undefined || input.electronicAddressScheme !== undefined) {
    // Set and cleared together: a scheme without its value (or the reverse) names no address.
    if ((input.electronicAddress ?? null) !== null || (input.electronicAddressScheme ?? null) !== null) {
      const fault = electronicAddressFault({ scheme: input.electronicAddressScheme, value: input.electronicAddress })
      if (fault) bag.add('electronic_address', fault)
    }
  }
  if (input.contactEmail && !isEmailAddress(input.contactEmail)) bag.add('contact.email', 'must be an email address')
  for (const [k, f, max] of [
    ['contactName', 'contact.name', 255],
    ['contactPhone', 'contact.phone', 50],
    ['taxRegistrationId', 'tax_registration_id', 100],
  ] as const) {
    const v = input[k]
    if (v && [...v].length > max) bag.add(f, `must be at most ${max} characters`)
  }
  if (input.einvoiceFormat !== undefined && !isEInvoiceFormat(input.einvoiceFormat))
    bag.add('einvoice_format', `must be one of ${EINVOICE_FORMATS.join(', ')}`)
  if (input.brandColor != null && !BRAND_COLOR_RE.test(input.brandColor))
    bag.add('brand_color', 'must be a colour written #RRGGBB, such as #1F6FEB')
  if (input.language !== undefined && !isLanguage(input.language)) bag.add('language', LANGUAGE_FAULT)
  if (input.issuingLimit !== undefined && (!Number.isInteger(input.issuingLimit) || input.issuingLimit < 0))
    bag.add('issuing_limit', 'must be a whole number, 0 or more')
  bag.throwIfAny()
}

/** Creates a Business; `alsoInTx` (an Owner's membership) commits with it or not at all. */
export async function createBusiness(
  db: Database,
  clock: Clock,
  input: BusinessInput,
  alsoInTx?: (tx: Tx, row: BusinessRow) => Promise<void>,
): Promise<BusinessRow> {
  check(input, true)
  const now = clock.now().toISOString()
  return db.write(async (tx) => {
    const row = await insertBusiness(tx, {
      publicId: randomUUID(),
      name: input.name!.trim(),
      legalName: input.legalName ?? null,
      country: input.country!,
      currency: input.currency!,
      vatNumber: input.vatNumber ?? null,
      companyId: input.companyId ?? null,
      isVatPayer: input.isVatPayer ?? true,
      isTest: input.isTest ?? false,
      plan: (input.plan as Plan) ?? 'pro',
      email: input.email ?? null,
      address: input.address ?? null,
      city: input.city ?? null,
      postalCode: input.postalCode ?? null,
      issuingLimit: input.issuingLimit ?? 100,
      electronicAddressScheme: input.electronicAddressScheme ?? null,
      electronicAddress: input.electronicAddress ?? null,
      contactName: input.contactName ?? null,
      contactPhone: input.contactPhone ?? null,
      contactEmail: input.contactEmail ?? null,
      taxRegistrationId: input.taxRegistrationId ?? null,
      einvoiceFormat: input.einvoiceFormat ?? 'ubl',
      brandColor: input.brandColor ?? null,
      language: input.language ?? 'en',
      createdAt: now,
      updatedAt: now,
    })
    await alsoInTx?.(tx, row)
    return row
  })
}

/** Writes `set` on the Business inside `tx` and answers its row; 404 when there is no such Business. */
async function updatedBusiness(tx: Tx, id: number, set: Parameters<typeof updateBusinessRow>[2]): Promise<BusinessRow> {
  const row = await updateBusinessRow(tx, id, set)
  if (!row) throw new NotFound(`No Business with id ${id}.`)
  return row
}

export async function updateBusiness(
  db: Database,
  clock: Clock,
  id: number,
  input: BusinessInput,
): Promise<BusinessRow> {
  check(input, false)
  return db.write(async (tx) => {
    const set: Partial<BusinessRow> = { updatedAt: clock.now().toISOString() }
    for (const [k, v] of Object.entries(input)) if (v !== undefined) (set as Record<string, unknown>)[k] = v
    // The seller's details before and after: a change of them is a journal entry in this transaction (§17).
    const before = await sellerDetails(tx, id)
    const row = await updatedBusiness(tx, id, set)
    await journalSellerChange(tx, clock, id, before)
    return row
  })
}

/** Sets (or with null removes) the Business's logo: a PNG or JPEG of at most 1 MB and 2000 × 2000 pixels that the PDFs can draw (logo.ts). */
export async function setBusinessLogo(
  db: Database,
  clock: Clock,
  id: number,
  bytes: Uint8Array | null,
): Promise<BusinessRow> {
  let type: string | null = null
  if (bytes) {
    const fault = await logoFault(bytes)
    if (fault) throw new InvalidRequest({ logo: [fault] })
    type = logoTypeOf(bytes)
  }
  return db.write(async (tx) => {
    const row = await updatedBusiness(tx, id, { logoType: type, updatedAt: clock.now().toISOString() })
    await putLogoBytes(tx, id, bytes)
    return row
  })
}

/** The Business's logo for its PDFs, or null when it has none. */
export async function businessLogo(
  q: Queryable,
  business: BusinessRow,
): Promise<{ bytes: Uint8Array; type: string } | null> {
  if (!business.logoType) return null
  const bytes = await findLogoBytes(q, business.id)
  return bytes ? { bytes, type: business.logoType } : null
}

export async function getBusiness(q: Queryable, id: number): Promise<BusinessRow> {
  const row = await findBusinessById(q, id)
  if (!row) throw new NotFound(`No Business with id ${id}.`)
  return row
}

/** Finds a Business by its numeric id or its public UUID, as the CLI accepts either. */
export async function resolveBusiness(q: Queryable, ref: string, hot: HotReader | null = null): Promise<BusinessRow> {
  const row = /^\d+$/.test(ref) ? await findBusinessById(q, Number(ref)) : await findBusinessByPublicId(q, ref, hot)
  // A deleted Business is gone for every command: its records stay in the file only for legal retention.
  if (!row || row.deletedAt) throw new NotFound(`No Business "${ref}".`)
  return row
}

/** Why an IBAN (compact, upper-case) is refused, by ibantools' rules (country format and length, ISO 7064 checksum, national check digits); null when it is sound. */
function ibanFault(iban: string): string | null {
  const { valid, errorCodes } = validateIBAN(iban)
  if (valid) return null
  if (errorCodes.includes(ValidationErrorsIBAN.NoIBANCountry))
    return `starts with ${iban.slice(0, 2)}, which is no country that uses IBANs`
  if (
    errorCodes.includes(ValidationErrorsIBAN.WrongBBANLength) ||
    errorCodes.includes(ValidationErrorsIBAN.WrongBBANFormat)
  ) {
    return `is not laid out as a ${iban.slice(0, 2)} IBAN (its length or characters are wrong)`
  }
  if (
    errorCodes.includes(ValidationErrorsIBAN.WrongIBANChecksum) ||
    errorCodes.includes(ValidationErrorsIBAN.ChecksumNotNumber)
  ) {
    return 'has check digits that do not match: a character is probably mistyped'
  }
  if (errorCodes.includes(ValidationErrorsIBAN.WrongAccountBankBranchChecksum))
    return "fails its country's own account check digit: a character is probably mistyped"
  return 'is not a valid IBAN'
}

/**
 * Deletes a Business for the API (extensions §8): its keys, sessions and Connected apps stop at once (every credential
 * lookup asks for a live Business) and nothing more is sent about it; its records stay in the file.
 */
export async function deleteBusiness(
  db: Database,
  clock: Clock,
  id: number,
  alsoInTx?: (tx: Tx, at: string) => Promise<void>,
): Promise<BusinessRow> {
  return db.write(async (tx) => {
    const at = clock.now().toISOString()
    const row = await updatedBusiness(tx, id, { deletedAt: at })
    await alsoInTx?.(tx, at)
    return row
  })
}

export async function addBankAccount(
  db: Database,
  clock: Clock,
  businessId: number,
  input: { name?: string; iban?: string; bic?: string | null; currency?: string | null },
): Promise<BankAccountRow> {
  const bag = new FieldErrorBag()
  if (!input.name?.trim()) bag.add('name', 'is required')
  const iban = input.iban?.replace(/\s+/g, '').toUpperCase()
  const ibanProblem = iban ? ibanFault(iban) : 'is required, e.g. DE89370400440532013000'
  if (ibanProblem) bag.add('iban', ibanProblem)
  const bic = input.bic?.replace(/\s+/g, '').toUpperCase() || null
  if (bic && !validateBIC(bic).valid) bag.add('bic', 'must be a BIC of 8 or 11 characters, such as COBADEFFXXX')
  if (input.currency && !isCurrency(input.currency)) bag.add('currency', 'must be an ISO 4217 code such as EUR')
  bag.throwIfAny()
  return db.write(async (tx) => {
    await getBusiness(tx, businessId)
    return insertBankAccount(tx, {
      businessId,
      name: input.name!.trim(),
      iban: iban!,
      bic,
      currency: input.currency ?? null,
      createdAt: clock.now().toISOString(),
    })
  })
}

export async function getBankAccount(q: Queryable, businessId: number, id: number): Promise<BankAccountRow> {
  const row = await findBankAccount(q, businessId, id)
  if (!row) throw new NotFound('No such bank account.')
  return row
}

export async function listBankAccounts(
  q: Queryable,
  businessId: number,
  afterId: number,
  limit: number,
): Promise<BankAccountRow[]> {
  return bankAccountPage(q, businessId, afterId, limit)
}

/** The ids among `ids` that are not bank accounts of this Business. */
export async function foreignBankAccountIds(q: Queryable, businessId: number, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set()
  const ownIds = new Set(await bankAccountIdsOf(q, businessId))
  return new Set(ids.filter((id) => !ownIds.has(id)))
}

/** Sets the Business's pattern for a kind of numbering (Owner and Admin settings, the CLI); the rules are numbering's. */
export async function setNumbering(
  db: Database,
  businessId: number,
  kind: string,
  pattern: string,
): Promise<{ kind: string; pattern: string }> {
  const checked = checkPattern(kind, pattern)
  await db.write(async (tx) => {
    await getBusiness(tx, businessId)
    await storePattern(tx, businessId, checked, pattern)
  })
  return { kind, pattern }
}
