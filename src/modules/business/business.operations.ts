// Operations of the Business setup and its bank accounts: read through the API and MCP (the CLI and the application change them).
import { Type as t } from '@sinclair/typebox'
import { ListQuery } from '../../shared/schemas'
import { idOf, json, listOperation, type ApplicationOperation, type Operation } from '../../platform/operation'
import { businessMailProvider } from '../mailbox'
import { BankAccountList, BankAccountSchema, BusinessSchema } from './business.model'
import { presentBankAccount, presentBusiness } from './business.present'
import {
  addBankAccount,
  getBankAccount,
  getBusiness,
  listBankAccounts,
  setBusinessLogo,
  setNumbering,
  updateBusiness,
  type BusinessInput,
} from './business.service'
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys'
import { KEY_ROLES, type KeyRole } from '../../platform/actor'
import { FieldErrorBag, InvalidRequest, NotFound } from '../../shared/errors'

const tag = 'Business'

export const businessOperations: Operation[] = [
  {
    name: 'business_get',
    tag,
    summary: 'The Business the credential acts for',
    description:
      'Its setup as the contract names it (extensions §2): names, country, reporting currency, VAT status, plan, mail provider, branding.',
    http: { method: 'GET', path: '/v1/business', status: 200 },
    output: BusinessSchema,
    access: 'read',
    idempotent: false,
    refusals: [],
    mcp: true,
    async run(actor, _input, { deps }) {
      const business = await getBusiness(deps.db.read, actor.businessId)
      return json(presentBusiness(business, await businessMailProvider(deps.db.read, business, deps.config.mailRelay)))
    },
  },
  listOperation({
    name: 'bank_accounts_list',
    tag,
    summary: 'List bank accounts',
    description: "The Business's bank accounts, oldest first, paged with `limit` and `cursor`.",
    http: { method: 'GET', path: '/v1/bank-accounts', status: 200 },
    query: t.Object(ListQuery),
    output: BankAccountList,
    access: 'read',
    mcp: true,
    list: 'bank-accounts',
    rows: ({ deps }, actor, after, n) => listBankAccounts(deps.db.read, actor.businessId, after, n),
    present: presentBankAccount,
  }),
  {
    name: 'bank_accounts_get',
    tag,
    summary: 'Get a bank account',
    description: 'One bank account of the Business by its id.',
    http: { method: 'GET', path: '/v1/bank-accounts/:id', status: 200 },
    path: t.Object({ id: t.String({ description: 'bank account id' }) }),
    output: BankAccountSchema,
    access: 'read',
    idempotent: false,
    refusals: [],
    mcp: true,
    async run(actor, { path }, { deps }) {
      return json(presentBankAccount(await getBankAccount(deps.db.read, actor.businessId, idOf(path.id))))
    },
  },
]

/** The application's settings of a Business (extensions §9), which the contract gives no API: Owner and Admin only. */
export const businessAppOperations: ApplicationOperation[] = [
  {
    name: 'business_update',
    description: "Changes the Business's setup (name, addresses, VAT and tax ids, currency, language, payment terms).",
    access: 'admin',
    refusals: [],
    async run(actor, { body }, { deps }) {
      return json(await updateBusiness(deps.db, deps.clock, actor.businessId, body as BusinessInput))
    },
  },
  {
    name: 'business_set_logo',
    description: "Sets the Business's logo (a PNG or JPEG of at most 1 MB), or removes it with `remove: true`.",
    access: 'admin',
    refusals: [],
    async run(actor, { body }, { deps }) {
      const { bytes, remove } = body as { bytes?: Uint8Array; remove?: true }
      if (!remove && !bytes) throw new InvalidRequest({ logo: ['choose a PNG or JPEG image to upload'] })
      await setBusinessLogo(deps.db, deps.clock, actor.businessId, remove ? null : bytes!)
      return json({ logo: !remove })
    },
  },
  {
    name: 'bank_accounts_create',
    description: 'Adds a bank account (name, IBAN, BIC, currency) that documents may show.',
    access: 'admin',
    refusals: [],
    async run(actor, { body }, { deps }) {
      return json(await addBankAccount(deps.db, deps.clock, actor.businessId, body))
    },
  },
  {
    name: 'numbering_set',
    description: 'Sets the numbering pattern of one kind of document (or of Receipts).',
    access: 'admin',
    refusals: [],
    async run(actor, { body }, { deps }) {
      const { kind, pattern } = body as { kind: string; pattern: string }
      return json(await setNumbering(deps.db, actor.businessId, kind, pattern))
    },
  },
  {
    name: 'api_keys_create',
    description: 'Creates an API key with a name and a Role; its secret is in this answer only (it is stored hashed).',
    access: 'admin',
    refusals: [],
    async run(actor, { body }, { deps }) {
      const { name, role } = body as { name: string; role: string }
      const bag = new FieldErrorBag()
      if (!name) bag.add('name', 'is required')
      else if (name.length > 100) bag.add('name', 'must be at most 100 characters')
      if (!KEY_ROLES.includes(role as KeyRole)) bag.add('role', 'must be admin, member or viewer')
      bag.throwIfAny()
      const k = await createApiKey(deps.db, deps.clock, actor.businessId, { name, role: role as KeyRole })
      return json({ name, key: k.key })
    },
  },
  {
    name: 'api_keys_revoke',
    description: "Revokes one of the Business's API keys: it no longer works.",
    access: 'admin',
    refusals: [],
    async run(actor, { path }, { deps }) {
      const id = idOf(path.id, 'No such API key in this Business.')
      const own = (await listApiKeys(deps.db, actor.businessId)).some((k) => k.id === id)
      if (!own) throw new NotFound('No such API key in this Business.')
      await revokeApiKey(deps.db, deps.clock, id)
      return { kind: 'deleted', id }
    },
  },
]
