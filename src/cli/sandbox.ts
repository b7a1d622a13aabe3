// `invoicing sandbox`: a throwaway database with a Test business, sample Clients, Products and documents in every
// status, and an Admin key, then serve.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { publicBaseUrl, type Config } from '../config'
import { createDeps } from '../deps'
import { createApiKey, createBusiness, addBankAccount } from '../modules/business'
import { createClient } from '../modules/clients'
import { reachableUrl, serveForever } from './serve'
import { seedSandboxDocuments } from './sandbox-data'
import { buildApp } from '../app'
import { utcDay } from '../shared/dates'
import type { Args } from './args'
import { addPerson, makeOwner, signInLinkPath } from '../modules/people'

const SANDBOX_OWNER = 'owner@sandbox.example'

const SAMPLE_CLIENTS = [
  {
    name: 'Acme Trading GmbH',
    email: 'billing@acme.example',
    country: 'DE',
    city: 'Berlin',
    postal_code: '10115',
    address: 'Invalidenstraße 1',
  },
  {
    name: 'Blue Harbour SARL',
    email: 'compta@blueharbour.example',
    country: 'FR',
    city: 'Marseille',
    postal_code: '13002',
  },
  { name: 'Northwind Ltd', email: 'accounts@northwind.example', country: 'IE', city: 'Dublin', currency: 'EUR' },
]

export async function sandbox(config: Config, args: Args, port: number, host = '127.0.0.1'): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'invoicing-sandbox-'))
  // The folder is the sandbox's alone: removed when it stops, or when it fails to start.
  const removeDir = () => rmSync(dir, { recursive: true, force: true })
  let deps
  try {
    deps = await createDeps({ ...config, dbPath: join(dir, 'sandbox.db') })
  } catch (e) {
    removeDir()
    throw e
  }
  const owner = await addPerson(deps, { email: SANDBOX_OWNER, name: 'Sandbox Owner' })
  const business = await createBusiness(
    deps.db,
    deps.clock,
    {
      name: 'Test business',
      legalName: 'Test business Ltd',
      country: 'DE',
      currency: 'EUR',
      vatNumber: 'DE123456789',
      email: 'test@business.example',
      // An address, so its samples look like real documents (and the seller block is not empty).
      address: 'Friedrichstraße 100',
      city: 'Berlin',
      postalCode: '10117',
      plan: 'pro',
      isTest: true,
    },
    (tx, row) => makeOwner(tx, owner.person.id, row.id, deps.clock),
  )
  await addBankAccount(deps.db, deps.clock, business.id, {
    name: 'Main account',
    iban: 'DE89370400440532013000',
    bic: 'COBADEFFXXX',
    currency: 'EUR',
  })
  for (const c of SAMPLE_CLIENTS) await createClient(deps, business, c)
  const key = await createApiKey(deps.db, deps.clock, business.id, { name: 'sandbox admin', role: 'admin' })
  const seeding = await buildApp(deps)
  await seedSandboxDocuments(seeding, key.key, utcDay(deps.clock.now()))
  await seeding.requestLog.flush()
  // Listening first: the address printed is the one bound (--port 0 takes a free port), and a taken port fails before
  // a key is shown.
  let bound: number
  try {
    bound = await serveForever(deps, port, host, { afterStop: removeDir })
  } catch (e) {
    deps.db.close()
    removeDir()
    throw e
  }
  const signInLink = publicBaseUrl(deps.config) + signInLinkPath(owner.token)
  const info = {
    database: deps.config.dbPath,
    business_id: business.publicId,
    api_key: key.key,
    url: `${reachableUrl(host, bound)}/v1`,
    owner: SANDBOX_OWNER,
    sign_in_link: signInLink,
  }
  if (args.flags.has('json')) process.stdout.write(JSON.stringify(info) + '\n')
  else {
    process.stdout.write(
      `Sandbox ready (a Test business; its numbers carry TEST- and its PDFs say SAMPLE).\n` +
        `  database: ${info.database}\n  base URL: ${info.url}\n  API key (Admin, shown once): ${info.api_key}\n` +
        `  try: curl -H "Authorization: Bearer ${info.api_key}" ${info.url}/clients\n` +
        `  application: ${SANDBOX_OWNER} (Owner) chooses a password here (one use, 30 minutes): ${signInLink}\n` +
        `Stop with Ctrl+C; the temporary folder and its database are removed then.\n`,
    )
  }
}
