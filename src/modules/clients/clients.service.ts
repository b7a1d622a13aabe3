// Client use cases: create, update, get, list; every rule of the contract's Client sections.
import { blank, isEmailAddress } from '../../shared/text'
import type { Database, SqlTx, Tx } from '../../db/client'
import type { ViesClient } from '../../adapters/vies'
import type { Clock } from '../../shared/clock'
import { FieldErrorBag, InvalidRequest, NotFound, Refusal, type RefusalCode } from '../../shared/errors'
import { isCountry, viesPrefixFor } from '../../shared/countries'
import { fitsVatSyntax } from '../../shared/vat-syntax'
import { currencyScale, isCurrency } from '../../shared/currencies'
import { electronicAddressFault } from '../../shared/einvoice-formats'
import { parseDecimal, type Decimal } from '../../shared/money'
import { accountCodeNumbering, judge, render, take, type Numbering } from '../numbering'
import { foreignBankAccountIds } from '../business'
import { isLanguage, LANGUAGE_FAULT } from '../words'
import { NAME_REQUIRED, type ClientCreateInput, type ClientUpdateInput } from './clients.model'
import {
  findClient,
  insertClient,
  insertClientId,
  listClients,
  searchTextOf,
  updateClientRow,
  type ClientInsert,
  type ClientRow,
} from './clients.repo'

export interface ClientDeps {
  db: Database
  clock: Clock
  vies: ViesClient
}

const PLAIN_FIELDS = ['contact_person', 'phone', 'address', 'city', 'postal_code', 'notes'] as const

/** The electronic address a request gave (null clears it to the EM default), checked against the EAS list. */
function electronicAddressIn(
  a: { scheme: string; value: string } | null | undefined,
  bag: FieldErrorBag,
): { scheme: string; value: string } | null {
  if (!a) return null
  const scheme = a.scheme.trim().toUpperCase()
  const value = a.value.trim()
  const fault = electronicAddressFault({ scheme, value })
  if (fault) {
    bag.add(
      fault.startsWith('scheme') ? 'electronic_address.scheme' : 'electronic_address.value',
      fault.replace(/^(scheme|value) /, ''),
    )
    return null
  }
  return { scheme, value }
}

/** A Client's language as sent: null or blank takes the Business's (extensions §18); undefined when not sent. */
function languageIn(v: string | null | undefined, bag: FieldErrorBag): string | null | undefined {
  if (v === undefined) return undefined
  const lang = blank(v)?.toLowerCase() ?? null
  if (lang !== null && !isLanguage(lang)) {
    bag.add('language', LANGUAGE_FAULT)
    return undefined
  }
  return lang
}

/** VIES is asked only for EU VAT numbers of the right shape; the number may carry its country prefix or not. */
async function verifyVat(vies: ViesClient, country: string, vatNumber: string | null): Promise<boolean> {
  if (!vatNumber) return false
  const compact = vatNumber.replace(/[\s.-]/g, '').toUpperCase()
  const own = viesPrefixFor(country)
  const m = /^([A-Z]{2})(.+)$/.exec(compact)
  // A written prefix is read as VIES reads it: a Greek number written "GR…" is asked as "EL…".
  const written = m ? (m[1] === 'EL' ? 'EL' : viesPrefixFor(m[1]!)) : null
  const prefix = written ?? own
  if (!prefix) return false
  const number = written ? m![2]! : compact
  // A number that fits no member state's syntax is kept as written but never verified: VIES is not asked about it.
  if (!fitsVatSyntax(prefix, number)) return false
  try {
    return await vies.check(prefix, number)
  } catch {
    // Whatever goes wrong asking VIES, the Client is saved unverified.
    return false
  }
}

function creditLimitOf(
  raw: string | null | undefined,
  currency: string,
  bag: FieldErrorBag,
): Decimal | null | undefined {
  if (raw === undefined || raw === null) return raw
  // A field sent empty is left blank, as the contract says of every create field.
  if (raw.trim() === '') return null
  const r = parseDecimal(raw, { maxDecimals: Math.min(2, currencyScale(currency)), min: 'zero' })
  if (!r.ok) {
    bag.add('credit_limit', r.message)
    return undefined
  }
  return r.value
}

async function checkBankAccounts(
  db: Database,
  businessId: number,
  ids: number[] | null | undefined,
  bag: FieldErrorBag,
): Promise<void> {
  if (!ids || ids.length === 0) return
  const foreign = await foreignBankAccountIds(db.read, businessId, ids)
  ids.forEach((id, i) => {
    if (foreign.has(id)) bag.add(`preferred_bank_account_ids.${i}`, "is not one of the Business's bank accounts")
  })
}

/** An account code the request named, judged against the Business's pattern before the transaction. */
async function checkAccountCode(
  db: Database,
  businessId: number,
  code: string,
  exceptId: number | undefined,
  bag: FieldErrorBag,
): Promise<void> {
  const numbering = await accountCodeNumbering(db.read, businessId)
  const j = await judge(db.read, numbering, code, exceptId)
  if (!j.ok) bag.add('account_code', accountCodeFault(numbering, j.refusal.code))
}

/** Account codes answer the numbering's refusals as 422 field errors under `account_code` (the contract's Client rules). */
function accountCodeFault(numbering: Numbering, code: RefusalCode): string {
  return code === 'number_taken'
    ? 'is held by another Client'
    : `must fit the Business's account code pattern ${numbering.pattern}, e.g. ${render(numbering, 1)}`
}

/**
 * Takes the code the request named (judged again inside the transaction: a concurrent request may have taken it) or
 * the next one of the pattern, so two creates never share one.
 */
async function takeAccountCode(
  tx: SqlTx,
  businessId: number,
  code: string | null,
  exceptId?: number,
  read?: Numbering,
): Promise<string> {
  const numbering = read ?? (await accountCodeNumbering(tx, businessId))
  const j = await take(tx, numbering, code, exceptId)
  if (j.ok) return j.number
  if (j.refusal.code === 'numbering_at_its_end') throw new Refusal(j.refusal.code, j.refusal.message)
  throw new InvalidRequest({ account_code: [accountCodeFault(numbering, j.refusal.code)] })
}

/** A create request judged by every rule of the contract's Client, ready to be written: its row but for the account code. */
export interface ClientPlan {
  /** Every column but those taken when it is written (so a new column must be judged here). */
  row: Omit<ClientRow, 'id' | 'accountCode' | 'searchText'>
  /** The account code the request named (judged again when taken), or null for the next one of the pattern. */
  namedCode: string | null
}

/**
 * Judges a create request: its field errors go into `bag` (keyed as the create endpoint keys them) and the answer is
 * null; otherwise VIES is asked, outside any transaction, and the plan is ready for writeClient. One judge for the
 * create endpoint and the import of many rows (extensions §19).
 */
export async function planClient(
  deps: ClientDeps,
  business: { id: number; currency: string },
  input: ClientCreateInput,
  bag: FieldErrorBag,
): Promise<ClientPlan | null> {
  const businessId = business.id
  const email = blank(input.email)
  if (!email) bag.add('email', 'is required')
  else if (!isEmailAddress(email)) bag.add('email', 'must be an email address')
  const country = input.country.trim().toUpperCase()
  if (!isCountry(country)) bag.add('country', 'must be an ISO 3166-1 alpha-2 country code such as DE')
  const legalName = blank(input.legal_name) ?? null
  const name = blank(input.name) ?? legalName
  if (!name) bag.add('name', NAME_REQUIRED)
  const currency = blank(input.currency)?.toUpperCase() ?? business.currency
  if (!isCurrency(currency)) bag.add('currency', 'must be an ISO 4217 currency code such as EUR')
  const creditLimit = isCurrency(currency) ? creditLimitOf(input.credit_limit, currency, bag) : null
  const address = electronicAddressIn(input.electronic_address, bag)
  const language = languageIn(input.language, bag)
  await checkBankAccounts(deps.db, businessId, input.preferred_bank_account_ids, bag)
  // An explicit code is judged now; a blank one is taken inside the transaction.
  const namedCode = blank(input.account_code) ?? null
  if (namedCode) await checkAccountCode(deps.db, businessId, namedCode, undefined, bag)
  if (!bag.empty) return null

  const vatNumber = blank(input.vat_number) ?? null
  // Network I/O stays outside the transaction.
  const vatVerified = await verifyVat(deps.vies, country, vatNumber)
  const now = deps.clock.now().toISOString()
  return {
    namedCode,
    row: {
      businessId,
      name: name!,
      legalName,
      contactPerson: blank(input.contact_person) ?? null,
      email: email!,
      phone: blank(input.phone) ?? null,
      address: blank(input.address) ?? null,
      city: blank(input.city) ?? null,
      postalCode: blank(input.postal_code) ?? null,
      country,
      vatNumber,
      vatVerified,
      currency,
      paymentTerms: input.payment_terms ?? 30,
      isActive: true,
      creditLimit: creditLimit ? creditLimit.toFixed() : null,
      notes: blank(input.notes) ?? null,
      electronicAddressScheme: address?.scheme ?? null,
      electronicAddress: address?.value ?? null,
      buyerReference: blank(input.buyer_reference) ?? null,
      reminders: input.reminders ?? true,
      language: language ?? null,
      preferredBankAccountIds: JSON.stringify(
        [...new Set(input.preferred_bank_account_ids ?? [])].sort((a, b) => a - b),
      ),
      createdAt: now,
      updatedAt: now,
    },
  }
}

/** The account code pattern of a Business, read once by a caller writing many Clients in one transaction. */
export const clientNumbering = (tx: SqlTx, businessId: number): Promise<Numbering> =>
  accountCodeNumbering(tx, businessId)

/**
 * The row of a judged Client, its account code taken inside the caller's transaction (a concurrent request, or an
 * earlier row of the same import, may have taken a named one: 422 under `account_code`).
 */
async function rowOf(tx: SqlTx, plan: ClientPlan, numbering?: Numbering): Promise<Omit<ClientRow, 'id'>> {
  const accountCode = await takeAccountCode(tx, plan.row.businessId, plan.namedCode, undefined, numbering)
  const { name, legalName, email, vatNumber } = plan.row
  return { ...plan.row, accountCode, searchText: searchTextOf({ name, legalName, email, vatNumber, accountCode }) }
}

/** Writes a judged Client inside the caller's transaction and answers it as stored. */
export async function writeClient(tx: Tx, plan: ClientPlan): Promise<ClientRow> {
  return insertClient(tx, await rowOf(tx, plan))
}

/**
 * Writes a judged Client and answers its id only, on any SqlTx (an import's rows go through the prepared writer, and
 * are not read back), with the Business's account code pattern read once by the caller.
 */
export async function writeClientId(tx: SqlTx, plan: ClientPlan, numbering: Numbering): Promise<number> {
  return insertClientId(tx, await rowOf(tx, plan, numbering))
}

export async function createClient(
  deps: ClientDeps,
  business: { id: number; currency: string },
  input: ClientCreateInput,
): Promise<ClientRow> {
  const bag = new FieldErrorBag()
  const plan = await planClient(deps, business, input, bag)
  bag.throwIfAny()
  // Read inside the transaction: a keyed request's answer commits with the change (platform/idempotency.ts).
  return deps.db.write((tx) => writeClient(tx, plan!))
}

export async function updateClient(
  deps: ClientDeps,
  businessId: number,
  id: number,
  input: ClientUpdateInput,
): Promise<ClientRow> {
  const current = await findClient(deps.db.read, businessId, id)
  if (!current) throw new NotFound('No such Client.')
  const bag = new FieldErrorBag()
  const set: Partial<ClientInsert> = {}

  if (input.email !== undefined) {
    const email = blank(input.email)
    if (!email) bag.add('email', 'cannot be cleared')
    else if (!isEmailAddress(email)) bag.add('email', 'must be an email address')
    else set.email = email
  }
  if (input.country !== undefined) {
    const country = input.country.trim().toUpperCase()
    if (!isCountry(country)) bag.add('country', 'must be an ISO 3166-1 alpha-2 country code such as DE')
    else set.country = country
  }
  const legalName = input.legal_name !== undefined ? (blank(input.legal_name) ?? null) : current.legalName
  if (input.legal_name !== undefined) set.legalName = legalName
  if (input.name !== undefined) {
    const name = blank(input.name) ?? legalName
    if (!name) bag.add('name', NAME_REQUIRED)
    else set.name = name
  }
  for (const f of PLAIN_FIELDS) {
    const v = input[f]
    if (v === undefined) continue
    const key =
      ({ contact_person: 'contactPerson', postal_code: 'postalCode' } as Record<string, keyof ClientInsert>)[f] ??
      (f as keyof ClientInsert)
    ;(set as Record<string, unknown>)[key] = blank(v) ?? null
  }
  if (input.currency !== undefined) {
    const currency = blank(input.currency)?.toUpperCase()
    if (!currency) bag.add('currency', 'may be changed, not cleared')
    else if (!isCurrency(currency)) bag.add('currency', 'must be an ISO 4217 currency code such as EUR')
    else set.currency = currency
  }
  if (input.payment_terms !== undefined) {
    if (input.payment_terms === null) bag.add('payment_terms', 'may be changed, not cleared')
    else set.paymentTerms = input.payment_terms
  }
  if (input.is_active !== undefined) set.isActive = input.is_active
  if (input.electronic_address !== undefined) {
    const address = electronicAddressIn(input.electronic_address, bag)
    set.electronicAddressScheme = address?.scheme ?? null
    set.electronicAddress = address?.value ?? null
  }
  if (input.buyer_reference !== undefined) set.buyerReference = blank(input.buyer_reference) ?? null
  if (input.reminders !== undefined) set.reminders = input.reminders
  const language = languageIn(input.language, bag)
  if (language !== undefined) set.language = language
  const currency = set.currency ?? current.currency
  if (input.credit_limit !== undefined && isCurrency(currency)) {
    const limit = creditLimitOf(input.credit_limit, currency, bag)
    if (limit !== undefined) set.creditLimit = limit ? limit.toFixed() : null
  } else if (set.currency && current.creditLimit) {
    // A kept credit limit must still fit the new currency's scale.
    const r = parseDecimal(current.creditLimit, { maxDecimals: Math.min(2, currencyScale(set.currency)) })
    if (!r.ok)
      bag.add(
        'currency',
        'cannot be changed while the credit limit has more decimals than the new currency; change credit_limit with it',
      )
  }
  if (input.preferred_bank_account_ids !== undefined && input.preferred_bank_account_ids !== null) {
    await checkBankAccounts(deps.db, businessId, input.preferred_bank_account_ids, bag)
    set.preferredBankAccountIds = JSON.stringify([...new Set(input.preferred_bank_account_ids)].sort((a, b) => a - b))
  }
  const namedCode = blank(input.account_code)
  const changedCode = namedCode && namedCode !== current.accountCode ? namedCode : null
  if (changedCode) await checkAccountCode(deps.db, businessId, changedCode, id, bag)
  bag.throwIfAny()

  if (input.vat_number !== undefined) set.vatNumber = blank(input.vat_number) ?? null
  const vatNumber = set.vatNumber !== undefined ? set.vatNumber : current.vatNumber
  const country = set.country ?? current.country
  const vatChanged =
    (set.vatNumber !== undefined && set.vatNumber !== current.vatNumber) ||
    (set.country !== undefined && set.country !== current.country)
  if (vatChanged) {
    // A cleared number is removed without asking VIES.
    set.vatVerified = vatNumber ? await verifyVat(deps.vies, country, vatNumber) : false
  }
  set.updatedAt = deps.clock.now().toISOString()

  return deps.db.write(async (tx) => {
    if (changedCode) set.accountCode = await takeAccountCode(tx, businessId, changedCode, id)
    const merged = { ...current, ...set } as ClientRow
    set.searchText = searchTextOf(merged)
    const row = await updateClientRow(tx, businessId, id, set)
    if (!row) throw new NotFound('No such Client.')
    return row
  })
}

export async function getClient(deps: { db: Database }, businessId: number, id: number): Promise<ClientRow> {
  const row = await findClient(deps.db.read, businessId, id)
  if (!row) throw new NotFound('No such Client.')
  return row
}

export { listClients }
