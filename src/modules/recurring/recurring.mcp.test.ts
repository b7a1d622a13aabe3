// The recurring_invoices_* MCP tools through the SDK's own Client over streamable HTTP (extensions §11, §13): listed
// by Role, flat arguments, the same 422s, refusal codes, 404s and idempotency as the API.
import { describe, expect, test } from 'bun:test'
import { callTool as call, connectMcp } from '../../../test/mcp-client'
import { servedHarnessForFile, type Harness } from '../../../test/harness'

let h: Harness
let base: string
servedHarnessForFile((t) => ({ h, base } = t))

const line = { description: 'Support {{month}}', quantity: '1', unit_price: '50.00', vat_rate: '19' }

describe('recurring invoices through MCP', () => {
  test('an Admin creates, reads, lists, pauses, resumes, asks the dates of and deletes one with the tools', async () => {
    const b = await h.business()
    const clientId = await h.client(b.key)
    const c = await connectMcp(base, b.key)
    const names = (await c.listTools()).tools.map((t) => t.name)
    for (const n of ['create', 'list', 'get', 'update', 'delete', 'pause', 'resume', 'dates'])
      expect(names).toContain(`recurring_invoices_${n}`)

    const args = {
      client_id: clientId,
      lines: [line],
      frequency: 'month',
      start_date: '2026-03-31',
      count: 3,
      idempotency_key: 'rec-1',
    }
    const made = await call(c, 'recurring_invoices_create', args)
    expect(made.isError).toBeFalsy()
    const id = made.structuredContent.id
    expect(made.structuredContent).toMatchObject({ status: 'active', next_date: '2026-03-31', action: 'issue' })
    // The same key and arguments replay the first answer: one recurring invoice.
    const again = await call(c, 'recurring_invoices_create', args)
    expect(again.structuredContent.id).toBe(id)
    const list = await call(c, 'recurring_invoices_list', { client_id: String(clientId) })
    expect(list.structuredContent.data.map((r: any) => r.id)).toEqual([id])

    expect((await call(c, 'recurring_invoices_dates', { id, count: '3' })).structuredContent.dates).toEqual([
      '2026-03-31',
      '2026-04-30',
      '2026-05-31',
    ])
    expect((await call(c, 'recurring_invoices_update', { id, notes: 'Monthly' })).structuredContent.notes).toBe(
      'Monthly',
    )
    expect((await call(c, 'recurring_invoices_pause', { id })).structuredContent.status).toBe('paused')
    const paused = await call(c, 'recurring_invoices_pause', { id })
    expect(paused.isError).toBe(true)
    expect(paused.structuredContent.error.code).toBe('recurring_paused')
    expect((await call(c, 'recurring_invoices_resume', { id })).structuredContent.status).toBe('active')
    expect((await call(c, 'recurring_invoices_delete', { id })).structuredContent).toEqual({ id, deleted: true })
    const gone = await call(c, 'recurring_invoices_get', { id })
    expect(gone.structuredContent.error.type).toBe('not_found')
    await c.close()
  }, 30_000)

  test("a bad argument is the API's 422 naming its field; another Business's schedule is not found", async () => {
    const b = await h.business()
    const clientId = await h.client(b.key)
    const c = await connectMcp(base, b.key)
    const bad = await call(c, 'recurring_invoices_create', {
      client_id: clientId,
      lines: [line],
      frequency: 'month',
      start_date: '2026-03-31',
      interval: 400,
    })
    expect(bad.isError).toBe(true)
    expect(bad.structuredContent.error.type).toBe('invalid_request')
    expect(Object.keys(bad.structuredContent.error.errors)).toContain('interval')

    const other = await h.business()
    const o = await connectMcp(base, other.key)
    const theirs = await call(o, 'recurring_invoices_create', {
      client_id: await h.client(other.key),
      lines: [line],
      frequency: 'week',
      start_date: '2026-03-31',
    })
    const r = await call(c, 'recurring_invoices_get', { id: theirs.structuredContent.id })
    expect(r.structuredContent.error.type).toBe('not_found')
    await c.close()
    await o.close()
  }, 30_000)

  test("a Viewer's key lists the reads only, and a write called anyway is a permission error", async () => {
    const b = await h.business()
    const viewer = await h.key(b.id, 'viewer')
    const c = await connectMcp(base, viewer)
    const names = (await c.listTools()).tools.map((t) => t.name).filter((n) => n.startsWith('recurring_'))
    expect(names.sort()).toEqual(['recurring_invoices_dates', 'recurring_invoices_get', 'recurring_invoices_list'])
    const r = await call(c, 'recurring_invoices_create', {
      client_id: 1,
      lines: [line],
      frequency: 'month',
      start_date: '2026-03-31',
    })
    expect(r.structuredContent.error.type).toBe('permission')
    await c.close()
  }, 30_000)
})
