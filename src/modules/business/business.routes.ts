// HTTP routes of the Business setup and its bank accounts (read-only; the CLI changes them).
import { Elysia, t } from 'elysia'
import type { Database } from '../../db/client'
import { actorOf } from '../../http/context'
import { listPage, pathId, type HttpServices } from '../../http/route-helpers'
import { errorAnswers, ListQuery } from '../../http/schemas'
import { getBankAccount, getBusiness, listBankAccounts } from './business.service'
import { presentBankAccount, presentBusiness } from './business.present'
import { BankAccountList, BankAccountSchema, BusinessSchema } from './business.model'
import { businessMailProvider } from '../mail'

const tags = ['Business']

export function businessRoutes(deps: { db: Database; config: { mailRelay: string | null } }, http: HttpServices) {
  return new Elysia({ name: 'business' })
    .get(
      '/v1/business',
      async ({ request }) => {
        const id = actorOf(request).businessId
        const business = await getBusiness(deps.db.read, id)
        return presentBusiness(business, await businessMailProvider(deps.db.read, business, deps.config.mailRelay))
      },
      { response: { 200: BusinessSchema, ...errorAnswers() }, detail: { tags, summary: 'The Business the API key belongs to' } },
    )
    .get(
      '/v1/bank-accounts',
      ({ request, query }) =>
        listPage(http, request, query, 'bank-accounts', (c, after, n) => listBankAccounts(deps.db.read, c.businessId, after, n), presentBankAccount),
      { query: t.Object(ListQuery), response: { 200: BankAccountList, ...errorAnswers(422) }, detail: { tags, summary: 'List bank accounts' } },
    )
    .get(
      '/v1/bank-accounts/:id',
      async ({ request, params }) => presentBankAccount(await getBankAccount(deps.db.read, actorOf(request).businessId, pathId(params.id))),
      { params: t.Object({ id: t.String() }), response: { 200: BankAccountSchema, ...errorAnswers(404) }, detail: { tags, summary: 'Get a bank account' } },
    )
}
