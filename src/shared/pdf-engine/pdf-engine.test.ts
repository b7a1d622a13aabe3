// The PDF engine's realm: started on first use, its values made the server's own where they cross, and started anew
// once released. That a released engine is collected, the point of it, is tested with the server's idle hand-back
// (shared/memory.test.ts), where everything else that could hold it is let go too.
import { expect, test } from 'bun:test'
import { ours, pdfEngine, releasePdfEngine } from '.'

test("pdf-lib runs in its own realm: the server's bytes, lists and dates cross through the engine, and a PDF comes back as the server's bytes", async () => {
  const engine = await pdfEngine()
  const { PDFDocument } = engine.pdf
  // The realm's own Uint8Array and Array, not the server's: what pdf-lib's instanceof checks need.
  const outside = new Uint8Array([1, 2, 3])
  expect(outside instanceof (engine.bytes(outside).constructor as typeof Uint8Array)).toBe(false)
  expect(engine.bytes(outside).buffer).toBe(outside.buffer)
  expect(Array.isArray(engine.list([1, 2]))).toBe(true)
  expect(engine.list([1, 2]) instanceof Array).toBe(false)

  const pdf = await PDFDocument.create()
  pdf.addPage(engine.list([200, 100]) as [number, number])
  pdf.setCreationDate(engine.date(Date.UTC(2026, 0, 2)))
  const made = await pdf.save()
  expect(made instanceof Uint8Array).toBe(false)
  const bytes = ours(made)
  expect(bytes instanceof Uint8Array).toBe(true)
  expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-')
  // A server's array or date is refused by the realm's pdf-lib, as it would be without the engine's helpers.
  expect(() => pdf.addPage([200, 100])).toThrow()
  expect(() => pdf.setCreationDate(new Date())).toThrow()
})

test('a released engine is not used again: the next use starts a new realm', async () => {
  const before = await pdfEngine()
  releasePdfEngine()
  const after = await pdfEngine()
  expect(after).not.toBe(before)
  expect(after.pdf.PDFDocument).not.toBe(before.pdf.PDFDocument)
})
