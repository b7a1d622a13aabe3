// The statement import through its other doors (extensions §15): the MCP tool `bank_statements_import` over streamable
// HTTP with the SDK's own client, and `invoicing bank-statement import` through the real CLI entry point; both record
// what the API would, and a second import of the file is all duplicates.
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { writeFileSync } from 'node:fs'
import { issuedFor, servedHarnessForFile, type Harness } from '../../../test/harness'
import { connectMcp } from '../../../test/mcp-client'
import { addBankAccount } from '../business'
import { camtFile } from './camt.testkit'

let h: Harness
let base: string
servedHarnessForFile((t) => ({ h, base } = t))

const IBAN = 'DE89370400440532013000'
const LINE = { description: 'Work', quantity: '1', unit_price: '120.00', vat_rate: '0', vat_category: 'Z' }

async function seller() {
  const b = await h.business()
  const account = await addBankAccount(h.deps.db, h.clock, b.id, { name: 'Main', iban: IBAN })
  const clientId = await h.client(b.key)
  const inv = await issuedFor(h, { bizId: b.id, key: b.key, clientId }, { lines: [LINE] })
  return { ...b, accountId: account.id, inv }
}

describe('the MCP tool', () => {
  test('bank_statements_import takes the file as `xml` and records the Payment; a Viewer is refused', async () => {
    const s = await seller()
    const c = await connectMcp(base, s.key)
    const xml = camtFile({
      version: 8,
      iban: IBAN,
      entries: [{ amount: '120.00', structured: s.inv.payment_reference }],
    })
    const r = (await c.callTool({ name: 'bank_statements_import', arguments: { xml } })) as any
    expect(r.isError).toBeFalsy()
    const answer = r.structuredContent ?? JSON.parse(r.content[0].text)
    expect(answer).toMatchObject({ account_id: s.accountId, matched: 1, unmatched: 0 })
    expect(answer.entries[0]).toMatchObject({ status: 'matched', document_id: s.inv.id })
    const again = (await c.callTool({ name: 'bank_statements_import', arguments: { xml } })) as any
    const second = again.structuredContent ?? JSON.parse(again.content[0].text)
    expect(second).toMatchObject({ matched: 0, duplicates: 1 })
    const bad = (await c.callTool({ name: 'bank_statements_import', arguments: { xml: '<x' } })) as any
    expect(bad.isError).toBe(true)
    expect(JSON.stringify(bad.content)).toContain('file')
    await c.close()
    const viewer = await connectMcp(base, await h.key(s.id, 'viewer'))
    const refused = (await viewer.callTool({ name: 'bank_statements_import', arguments: { xml } })) as any
    expect(refused.isError).toBe(true)
    expect(JSON.stringify(refused.content)).toContain('permission')
    await viewer.close()
    const payments = await h.request('GET', '/v1/payments', { key: s.key })
    expect(payments.body.data).toHaveLength(1)
  }, 60_000)
})

describe('the CLI', () => {
  test('invoicing bank-statement import BUSINESS_ID FILE prints the statement; another IBAN is refused with nothing recorded', async () => {
    const s = await seller()
    const file = join(h.dir, 'statement.xml')
    writeFileSync(
      file,
      camtFile({ version: 4, iban: IBAN, entries: [{ amount: '20.00', text: [s.inv.document_number] }] }),
    )
    const cli = (args: string[]) => {
      const p = Bun.spawnSync(
        ['./node_modules/.bin/bun', 'src/main.ts', ...args, '--db', h.deps.config.dbPath, '--json'],
        {
          cwd: `${import.meta.dir}/../../..`,
          env: { ...process.env, INVOICING_DB: '' },
        },
      )
      return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() }
    }
    const ok = cli(['bank-statement', 'import', String(s.id), file])
    expect(ok.code, ok.err).toBe(0)
    const printed = JSON.parse(ok.out)
    expect(printed).toMatchObject({ account_id: s.accountId, matched: 1 })
    const p = await h.request('GET', `/v1/payments/${printed.entries[0].payment_id}`, { key: s.key })
    expect(p.body).toMatchObject({
      amount: '20.00',
      payment_method: 'bank_transfer',
      recorded_by: { name: 'command line' },
    })
    const other = join(h.dir, 'other.xml')
    writeFileSync(other, camtFile({ version: 4, iban: 'FR1420041010050500013M02606', entries: [{ amount: '1.00' }] }))
    const refused = cli(['bank-statement', 'import', String(s.id), other])
    expect(refused.code).not.toBe(0)
    expect(refused.err + refused.out).toContain('account')
    const list = await h.request('GET', '/v1/bank-statements', { key: s.key })
    expect(list.body.data).toHaveLength(1)
  }, 60_000)
})
