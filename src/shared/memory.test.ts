// Handing memory back on idle must leave the service whole: the next requests read and write as before.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { draftFor, makeHarness, type Harness } from '../../test/harness'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { handBackMemory, idleHandBack } from './memory'
import { releasePdfMemory } from '../modules/pdf'
import { pdfEngine } from './pdf-engine'

let h: Harness
beforeAll(async () => {
  h = await makeHarness()
})
afterAll(() => h.close())

test('after the idle hand-back (GC, shrink, malloc_trim) the service still reads and writes', async () => {
  const b = await h.business()
  const body = { name: 'Before', email: 'before@example.com', country: 'DE' }
  expect((await h.request('POST', '/v1/clients', { key: b.key, body })).status).toBe(201)
  await h.deps.db.shrinkMemory()
  handBackMemory()
  handBackMemory()
  expect((await h.request('POST', '/v1/clients', { key: b.key, body: { ...body, name: 'After' } })).status).toBe(201)
  const list = await h.request('GET', '/v1/clients', { key: b.key })
  expect(list.body.data.map((c: { name: string }) => c.name)).toEqual(['Before', 'After'])
})

test('an idle server lets the PDF engine and its parsed fonts go, and the next PDF is whole', async () => {
  const b = await h.business()
  const clientId = await h.client(b.key, { name: 'Ålesund Ærø', email: 'a@example.com', country: 'NO' })
  const d = await draftFor(
    h,
    { bizId: b.id, key: b.key, clientId },
    { lines: [{ description: 'Þjónusta ΑΒΓ', quantity: '1', unit_price: '1.00', vat_rate: '0' }] },
  )
  const pdfText = async () => {
    const res = await h.app.fetch(
      new Request(`http://localhost/v1/documents/${d.id}/pdf`, { headers: { authorization: `Bearer ${b.key}` } }),
    )
    expect(res.status).toBe(200)
    const file = join(h.dir, 'idle.pdf')
    writeFileSync(file, new Uint8Array(await res.arrayBuffer()))
    return Bun.spawnSync(['pdftotext', file, '-']).stdout.toString()
  }
  const first = await pdfText()
  // The engine that built it (pdf-lib and fontkit in their realm) is collected once let go: nothing the server
  // keeps (the build queue, the parsed fonts, the PDF's bytes) holds it.
  const engine = new WeakRef(await pdfEngine())
  releasePdfMemory()
  for (let i = 0; i < 4; i++) {
    handBackMemory()
    await Bun.sleep(10)
  }
  expect(engine.deref()).toBeUndefined()
  const again = await pdfText()
  // The same words, every character drawn from the fonts parsed again.
  expect(again).toContain('Ålesund Ærø')
  expect(again).toContain('Þjónusta ΑΒΓ')
  expect(again).toBe(first)
}, 20_000) // two PDF engines bundled and started, two pdftotext runs: seconds on a loaded machine

test('an idle server hands back the burst once, then the heap again every againMs while it stays idle, and nothing while busy', async () => {
  let t = 0
  const calls: string[] = []
  const idle = idleHandBack({
    afterMs: 2000,
    againMs: 10_000,
    now: () => t,
    first: async () => void calls.push('first'),
    again: () => void calls.push('again'),
  })
  idle.seen()
  t = 1000
  expect(await idle.tick()).toBe('busy')
  t = 2500
  expect(await idle.tick()).toBe('first')
  expect(calls).toEqual(['first', 'again'])
  t = 8000
  expect(await idle.tick()).toBe('waiting')
  t = 12_500
  expect(await idle.tick()).toBe('again')
  expect(calls).toEqual(['first', 'again', 'again'])
  // A request ends the idle spell: nothing until it has been quiet again, then the burst is released again.
  idle.seen()
  t = 13_000
  expect(await idle.tick()).toBe('busy')
  t = 15_000
  expect(await idle.tick()).toBe('first')
  expect(calls).toEqual(['first', 'again', 'again', 'first', 'again'])
})
