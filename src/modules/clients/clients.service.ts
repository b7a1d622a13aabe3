// Client use cases: create, update, get, list; every rule of the contract's Client sections.
import { blank, EMAIL_RE } from '../../shared/text'
import type { Database, Tx } from '../../db/client'
import type { ViesClient } from '../../adapters/vies'
import type { Clock } from '../../shared/clock'
import { FieldErrorBag, InvalidRequest, NotFound, Refusal } from '../../shared/errors'
import { isCountry, viesPrefixFor } from '../../shared/countries'
import { fitsVatSyntax } from '../../shared/vat-syntax'
import { currencyScale, isCurrency } from '../../shared/currencies'
import { electronicAddressFault } from '../../shared/einvoice-formats'
import { parseDecimal, type Decimal } from '../../shared/money'
import { formatNumber, parsePattern, readNumber } from '../../shared/numbering'
import { atItsEndMessage, foreignBankAccountIds, numberingPattern, recordTaken, takeNextFree } from '../business'
import type { ClientCreateInput, ClientUpdateInput } from './clients.model'
import {
  accountCodeHolder,
  findClient,
  insertClient,
  loadClient,
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
function electronicAddressIn(a: { scheme: string; value: string } | null | undefined, bag: FieldErrorBag): { scheme: string; value: string } | null {
  if (!a) return null
  const scheme = a.scheme.trim().toUpperCase()
  const value = a.value.trim()
  const fault = electronicAddressFault({ scheme, value })
  if (fault) {
    bag.add(fault.startsWith('scheme') ? 'electronic_address.scheme' : 'electronic_address.value', fault.replace(/^(scheme|value) /, ''))
    return null
  }
  return { scheme, value }
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

function creditLimitOf(raw: string | null | undefined, currency: string, bag: FieldErrorBag): Decimal | null | undefined {
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

async function checkBankAccounts(db: Database, businessId: number, ids: number[] | null | undefined, bag: FieldErrorBag): Promise<void> {
  if (!ids || ids.length === 0) return
  const foreign = await foreignBankAccountIds(db.read, businessId, ids)
  ids.forEach((id, i) => {
    if (foreign.has(id)) bag.add(`preferred_bank_account_ids.${i}`, 'is not one of the Business\'s bank accounts')
  })
}

/** An account code the request named, judged against the Business's pattern before the transaction. */
interface CodePlan {
  code: string
  pattern: string
  counter: number | null
}

async function planAccountCode(db: Database, businessId: number, code: string, exceptId: number | undefined, bag: FieldErrorBag): Promise<CodePlan> {
  const pattern = await numberingPattern(db.read, businessId, 'client')
  const p = parsePattern(pattern)!
  const read = readNumber(p, code)
  if (!read || read.beyond || read.counter < 1 || read.counter >= p.max) {
    bag.add('account_code', `must fit the Business's account code pattern ${pattern}, e.g. ${formatNumber(p, 1, 0)}`)
  } else if (await accountCodeHolder(db.read, businessId, code, exceptId)) {
    bag.add('account_code', 'is held by another Client')
  }
  return { code, pattern, counter: read?.counter ?? null }
}

/** Takes the next free code of the pattern inside the writing transaction, so two creates never share one. */
async function takeNextAccountCode(tx: Tx, businessId: number): Promise<string> {
  const pattern = await numberingPattern(tx, businessId, 'client')
  const code = await takeNextFree(tx, businessId, 'client', pattern, '', (p, n) => formatNumber(p, n, 0), async (c) => (await accountCodeHolder(tx, businessId, c)) !== undefined)
  if (code === null) throw new Refusal('numbering_at_its_end', atItsEndMessage('client', pattern))
  return code
}

/** Takes a code the request named, checked again inside the transaction and recorded on the counter. */
async function takeAccountCode(tx: Tx, businessId: number, plan: CodePlan, exceptId?: number): Promise<string> {
  // Taken meanwhile by a concurrent request: answered as the same field error a held code gets.
  if (await accountCodeHolder(tx, businessId, plan.code, exceptId)) throw new InvalidRequest({ account_code: ['is held by another Client'] })
  if (plan.counter !== null) await recordTaken(tx, businessId, 'client', plan.pattern, '', plan.counter)
  return plan.code
}

export async function createClient(deps: ClientDeps, business: { id: number; currency: string }, input: ClientCreateInput): Promise<ClientRow> {
  const businessId = business.id
  const bag = new FieldErrorBag()
  const email = blank(input.email)
  if (!email) bag.add('email', 'is required')
  else if (!EMAIL_RE.test(email)) bag.add('email', 'must be an email address')
  const country = input.country.trim().toUpperCase()
  if (!isCountry(country)) bag.add('country', 'must be an ISO 3166-1 alpha-2 country code such as DE')
  const legalName = blank(input.legal_name) ?? null
  const name = blank(input.name) ?? legalName
  if (!name) bag.add('name', 'is required when legal_name is blank')
  const currency = blank(input.currency)?.toUpperCase() ?? business.currency
  if (!isCurrency(currency)) bag.add('currency', 'must be an ISO 4217 currency code such as EUR')
  const creditLimit = isCurrency(currency) ? creditLimitOf(input.credit_limit, currency, bag) : null
  const address = electronicAddressIn(input.electronic_address, bag)
  await checkBankAccounts(deps.db, businessId, input.preferred_bank_account_ids, bag)
  // An explicit code is judged now; a blank one is taken inside the transaction.
  const namedCode = blank(input.account_code)
  const codePlan = namedCode ? await planAccountCode(deps.db, businessId, namedCode, undefined, bag) : null
  bag.throwIfAny()

  const vatNumber = blank(input.vat_number) ?? null
  // Network I/O stays outside the transaction.
  const vatVerified = await verifyVat(deps.vies, country, vatNumber)
  const now = deps.clock.now().toISOString()
  const id = await deps.db.write(async (tx) => {
    const accountCode = codePlan ? await takeAccountCode(tx, businessId, codePlan) : await takeNextAccountCode(tx, businessId)
    const row: ClientInsert = {
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
      accountCode,
      currency,
      paymentTerms: input.payment_terms ?? 30,
      isActive: true,
      creditLimit: creditLimit ? creditLimit.toFixed() : null,
      notes: blank(input.notes) ?? null,
      electronicAddressScheme: address?.scheme ?? null,
      electronicAddress: address?.value ?? null,
      buyerReference: blank(input.buyer_reference) ?? null,
      preferredBankAccountIds: JSON.stringify([...new Set(input.preferred_bank_account_ids ?? [])].sort((a, b) => a - b)),
      createdAt: now,
      updatedAt: now,
    }
    row.searchText = searchTextOf({ name: row.name, legalName: row.legalName ?? null, email: row.email ?? null, vatNumber, accountCode })
    return insertClient(tx, row)
  })
  return (await loadClient(deps.db, businessId, id))!
}

export async function updateClient(deps: ClientDeps, businessId: number, id: number, input: ClientUpdateInput): Promise<ClientRow> {
  const current = await findClient(deps.db.read, businessId, id)
  if (!current) throw new NotFound('No such Client.')
  const bag = new FieldErrorBag()
  const set: Partial<ClientInsert> = {}

  if (input.email !== undefined) {
    const email = blank(input.email)
    if (!email) bag.add('email', 'cannot be cleared')
    else if (!EMAIL_RE.test(email)) bag.add('email', 'must be an email address')
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
    if (!name) bag.add('name', 'is required when legal_name is blank')
    else set.name = name
  }
  for (const f of PLAIN_FIELDS) {
    const v = input[f]
    if (v === undefined) continue
    const key = ({ contact_person: 'contactPerson', postal_code: 'postalCode' } as Record<string, keyof ClientInsert>)[f] ?? (f as keyof ClientInsert)
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
  const currency = set.currency ?? current.currency
  if (input.credit_limit !== undefined && isCurrency(currency)) {
    const limit = creditLimitOf(input.credit_limit, currency, bag)
    if (limit !== undefined) set.creditLimit = limit ? limit.toFixed() : null
  } else if (set.currency && current.creditLimit) {
    // A kept credit limit must still fit the new currency's scale.
    const r = parseDecimal(current.creditLimit, { maxDecimals: Math.min(2, currencyScale(set.currency)) })
    if (!r.ok) bag.add('currency', 'cannot be changed while the credit limit has more decimals than the new currency; change credit_limit with it')
  }
  if (input.preferred_bank_account_ids !== undefined && input.preferred_bank_account_ids !== null) {
    await checkBankAccounts(deps.db, businessId, input.preferred_bank_account_ids, bag)
    set.preferredBankAccountIds = JSON.stringify([...new Set(input.preferred_bank_account_ids)].sort((a, b) => a - b))
  }
  let codePlan: CodePlan | null = null
  const namedCode = blank(input.account_code)
  if (namedCode && namedCode !== current.accountCode) codePlan = await planAccountCode(deps.db, businessId, namedCode, id, bag)
  bag.throwIfAny()

  if (input.vat_number !== undefined) set.vatNumber = blank(input.vat_number) ?? null
  const vatNumber = set.vatNumber !== undefined ? set.vatNumber : current.vatNumber
  const country = set.country ?? current.country
  const vatChanged = (set.vatNumber !== undefined && set.vatNumber !== current.vatNumber) || (set.country !== undefined && set.country !== current.country)
  if (vatChanged) {
    // A cleared number is removed without asking VIES.
    set.vatVerified = vatNumber ? await verifyVat(deps.vies, country, vatNumber) : false
  }
  set.updatedAt = deps.clock.now().toISOString()

  return deps.db.write(async (tx) => {
    if (codePlan) set.accountCode = await takeAccountCode(tx, businessId, codePlan, id)
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

