// `invoicing business create|update` and `invoicing bank-account add` and `invoicing numbering set`.
import type { Deps } from '../deps'
import {
  addBankAccount,
  createBusiness,
  deleteBusiness,
  presentBankAccount,
  presentBusiness,
  resolveBusiness,
  setNumbering,
  updateBusiness,
  setBusinessLogo,
  logoSizeFault,
  logoFault,
  type BusinessInput,
} from '../modules/business'
import { InvalidRequest } from '../shared/errors'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { businessMailProvider } from '../modules/mailbox'
import { findPerson, makeOwner } from '../modules/people'
import { endConnectionsOfBusiness } from '../modules/oauth'
import { NotFound } from '../shared/errors'
import { allowOnly, UsageError, type Args } from './args'
import { print } from './output'

const BUSINESS_OPTIONS = [
  'owner',
  'name',
  'country',
  'currency',
  'legal-name',
  'vat-number',
  'company-id',
  'non-vat-payer',
  'vat-payer',
  'email',
  'address',
  'city',
  'postal-code',
  'plan',
  'test',
  'issuing-limit',
  'logo',
  'brand-color',
  'electronic-address',
  'contact-name',
  'contact-phone',
  'contact-email',
  'tax-registration-id',
  'einvoice-format',
  'language',
]

/** An optional text option: not given keeps the value, given blank (`--email ""`) clears it to null. */
function clearable(value: string | undefined): string | null | undefined {
  if (value === undefined) return undefined
  return value.trim() === '' ? null : value.trim()
}

function businessInput(args: Args): BusinessInput {
  const o = args.options
  const input: BusinessInput = {
    name: o.name,
    country: o.country?.toUpperCase(),
    currency: o.currency?.toUpperCase(),
    legalName: clearable(o['legal-name']),
    vatNumber: clearable(o['vat-number']),
    companyId: clearable(o['company-id']),
    email: clearable(o.email),
    address: clearable(o.address),
    city: clearable(o.city),
    postalCode: clearable(o['postal-code']),
    plan: o.plan,
    brandColor: clearable(o['brand-color']),
    contactName: clearable(o['contact-name']),
    contactPhone: clearable(o['contact-phone']),
    contactEmail: clearable(o['contact-email']),
    taxRegistrationId: clearable(o['tax-registration-id']),
    einvoiceFormat: o['einvoice-format']?.trim().toLowerCase(),
    language: o.language?.trim().toLowerCase(),
  }
  const address = clearable(o['electronic-address'])
  if (address === null) input.electronicAddressScheme = input.electronicAddress = null
  else if (address !== undefined) {
    // SCHEME:VALUE, split at the first colon: an email value holds none, but other schemes' values may.
    const at = address.indexOf(':')
    input.electronicAddressScheme = at > 0 ? address.slice(0, at).trim().toUpperCase() : ''
    input.electronicAddress = at > 0 ? address.slice(at + 1).trim() : address
  }
  if (args.flags.has('non-vat-payer')) input.isVatPayer = false
  if (args.flags.has('vat-payer')) input.isVatPayer = true
  if (args.flags.has('test')) input.isTest = true
  if (o['issuing-limit'] !== undefined) input.issuingLimit = Number(o['issuing-limit'])
  return input
}

/**
 * `--logo FILE`: the image, judged before anything is written (a PNG or JPEG of at most 1 MB and 2000 × 2000 pixels
 * that the PDF writer can draw); `--logo ""` removes the logo; undefined when the option is not given.
 */
async function logoOption(args: Args): Promise<Uint8Array | null | undefined> {
  const path = args.options.logo
  if (path === undefined) return undefined
  if (path.trim() === '') return null
  if (!existsSync(path) || !statSync(path).isFile()) throw new InvalidRequest({ logo: [`names no file: ${path}`] })
  // Too large is said before the file is read; what the image is, setBusinessLogo judges (before the Business is changed).
  const tooLarge = logoSizeFault(statSync(path).size)
  if (tooLarge) throw new InvalidRequest({ logo: [tooLarge] })
  return new Uint8Array(readFileSync(path))
}

export async function businessCommand(deps: Deps, args: Args): Promise<void> {
  const [, sub, ref] = args.words
  allowOnly(args, BUSINESS_OPTIONS)
  if (sub === 'delete') {
    if (!ref || Object.keys(args.options).some((k) => k !== 'db'))
      throw new UsageError('usage: invoicing business delete BUSINESS_ID')
    const current = await resolveBusiness(deps.db.read, ref)
    // Its Connected apps end in the same transaction (their tokens are refused at once anyway: the Business is gone).
    const deleted = await deleteBusiness(deps.db, deps.clock, current.id, (tx, at) =>
      endConnectionsOfBusiness(tx, current.id, at),
    )
    return print(args, { id: deleted.id, business_id: deleted.publicId, deleted_at: deleted.deletedAt })
  }
  if (sub !== 'create' && sub !== 'update') throw new UsageError('usage: invoicing business create|update|delete ...')
  if (sub === 'update' && !ref) throw new UsageError('usage: invoicing business update BUSINESS_ID [options]')
  if (sub === 'update' && args.options.owner !== undefined)
    throw new UsageError('--owner is taken by business create; use member add to change who owns a Business')
  const input = businessInput(args)
  const logo = await logoOption(args)
  // The image is judged before anything is written, so a refused logo leaves the other options unapplied too.
  const fault = logo ? await logoFault(logo) : null
  if (fault) throw new InvalidRequest({ logo: [fault] })
  // The Owner must be a person already, asked before anything is written; the membership commits with the Business.
  const ownerEmail = sub === 'create' ? args.options.owner : undefined
  const owner = ownerEmail !== undefined ? await findPerson(deps, ownerEmail) : undefined
  if (ownerEmail !== undefined && !owner)
    throw new NotFound(`No person with the email ${ownerEmail}; add them first with "invoicing person add".`)
  let b =
    sub === 'create'
      ? await createBusiness(
          deps.db,
          deps.clock,
          input,
          owner ? (tx, row) => makeOwner(tx, owner.id, row.id, deps.clock) : undefined,
        )
      : await updateBusiness(deps.db, deps.clock, (await resolveBusiness(deps.db.read, ref!)).id, input)
  if (logo !== undefined) b = await setBusinessLogo(deps.db, deps.clock, b.id, logo)
  return print(args, {
    id: b.id,
    ...presentBusiness(b, await businessMailProvider(deps.db.read, b, deps.config.mailRelay)),
  })
}

export async function bankAccountCommand(deps: Deps, args: Args): Promise<void> {
  const [, sub, ref] = args.words
  allowOnly(args, ['name', 'iban', 'bic', 'currency'])
  if (sub !== 'add' || !ref)
    throw new UsageError('usage: invoicing bank-account add BUSINESS_ID --name N --iban I [--bic B] [--currency CUR]')
  const b = await resolveBusiness(deps.db.read, ref)
  const a = await addBankAccount(deps.db, deps.clock, b.id, {
    name: args.options.name,
    iban: args.options.iban,
    bic: args.options.bic,
    currency: args.options.currency?.toUpperCase(),
  })
  print(args, presentBankAccount(a))
}

export async function numberingCommand(deps: Deps, args: Args): Promise<void> {
  const [, sub, ref] = args.words
  allowOnly(args, ['kind', 'pattern'])
  if (sub !== 'set' || !ref || !args.options.kind || !args.options.pattern) {
    throw new UsageError('usage: invoicing numbering set BUSINESS_ID --kind KIND --pattern P')
  }
  const b = await resolveBusiness(deps.db.read, ref)
  print(args, await setNumbering(deps.db, b.id, args.options.kind, args.options.pattern))
}
