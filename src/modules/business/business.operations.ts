// Operations of the Business setup and its bank accounts: read through the API and MCP (the CLI and the application change them).
import { Type as t } from '@sinclair/typebox'
import { ListQuery } from '../../shared/schemas'
import { idOf, json, listPage, type Operation } from '../../platform/operation'
import { businessMailProvider } from '../mailbox'
import { BankAccountList, BankAccountSchema, BusinessSchema } from './business.model'
import { presentBankAccount, presentBusiness } from './business.present'
import { getBankAccount, getBusiness, listBankAccounts } from './business.service'

const tag = 'Business'

export const businessOperations: Operation[] = [
  {
    name: 'business_get',
    tag,
    summary: 'The Business the credential acts for',
    description: 'Its setup as the contract names it (extensions §2): names, country, reporting currency, VAT status, plan, mail provider, branding.',
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
  {
    name: 'bank_accounts_list',
    tag,
    summary: 'List bank accounts',
    description: 'The Business\'s bank accounts, oldest first, paged with `limit` and `cursor`.',
    http: { method: 'GET', path: '/v1/bank-accounts', status: 200 },
    query: t.Object(ListQuery),
    output: BankAccountList,
    access: 'read',
    idempotent: false,
    refusals: [],
    mcp: true,
    async run(actor, { query }, ctx) {
      return json(await listPage(ctx, actor, query, 'bank-accounts', (after, n) => listBankAccounts(ctx.deps.db.read, actor.businessId, after, n), presentBankAccount))
    },
  },
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
