import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { readEmbedded } from '../../shared/embedded-file'
import { fontBytes } from './fonts'

const dir = mkdtempSync(join(tmpdir(), 'fonts-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('a font file the build gzipped reads back byte for byte as the TrueType file it was; a plain one as it is', async () => {
  const { regular } = await fontBytes()
  expect([...regular.subarray(0, 4)]).toEqual([0, 1, 0, 0])
  const gz = join(dir, 'regular.ttf')
  writeFileSync(gz, gzipSync(regular, { level: 9 }))
  expect(Buffer.from(await readEmbedded(gz)).equals(Buffer.from(regular))).toBe(true)
  const plain = join(dir, 'plain.ttf')
  writeFileSync(plain, regular)
  expect(Buffer.from(await readEmbedded(plain)).equals(Buffer.from(regular))).toBe(true)
})
