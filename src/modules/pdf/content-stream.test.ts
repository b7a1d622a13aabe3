// A page's content stream as bytes: what is written is what a reader inflates, however long the page grows.
import { expect, test } from 'bun:test'
import { inflateSync } from 'node:zlib'
import { ContentStream } from './content-stream'

test('operators and glyph ids come back from the compressed stream as written, beyond the first buffer too', () => {
  const c = new ContentStream()
  expect(c.empty).toBe(true)
  let expected = ''
  for (let i = 0; i < 3000; i++) {
    const op = `BT 0.1 0.1 0.1 rg ${i} 700.5 Td /F1 9 Tf <`
    c.ascii(op)
    for (const id of [0, 1, 0xab, 0x1234, 0xffff]) c.glyph(id)
    c.ascii('> Tj ET\n')
    expected += `${op}${['0000', '0001', '00ab', '1234', 'ffff'].join('')}> Tj ET\n`
  }
  expect(c.empty).toBe(false)
  const page = c.take()
  expect(inflateSync(page).toString('latin1')).toBe(expected)
  // The next page starts empty.
  expect(c.empty).toBe(true)
  c.ascii('q Q\n')
  expect(inflateSync(c.take()).toString('latin1')).toBe('q Q\n')
})
