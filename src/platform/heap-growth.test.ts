import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { HEAP_GROWTH, HEAP_GROWTH_VARIABLE, heapGrowthRestart } from './heap-growth'
import { startServer } from '../../test/processes'

describe('a serving process bounds its heap growth by starting again under the option', () => {
  const source = { execPath: '/usr/bin/bun', argv: ['/usr/bin/bun', '/app/src/main.ts', 'serve', '--port', '0'], execArgv: ['--smol'], env: { PATH: '/bin' } }

  test('from source: bun again, with its flags, the same script and arguments, and the option added to the environment', () => {
    expect(heapGrowthRestart(source)).toEqual({
      file: '/usr/bin/bun',
      args: ['/usr/bin/bun', '--smol', '/app/src/main.ts', 'serve', '--port', '0'],
      env: { PATH: '/bin', [HEAP_GROWTH_VARIABLE]: HEAP_GROWTH },
    })
  })

  test('the compiled binary starts itself again with its own arguments', () => {
    const r = heapGrowthRestart({ execPath: '/opt/invoicing', argv: ['bun', '/$bunfs/root/invoicing', 'sandbox', '--port', '9000'], execArgv: [], env: {} })
    expect(r?.args).toEqual(['/opt/invoicing', 'sandbox', '--port', '9000'])
  })

  test('never twice, never over an operator\'s own value, never for a command that does not serve', () => {
    expect(heapGrowthRestart({ ...source, env: { [HEAP_GROWTH_VARIABLE]: HEAP_GROWTH } })).toBeNull()
    expect(heapGrowthRestart({ ...source, env: { [HEAP_GROWTH_VARIABLE]: '3' } })).toBeNull()
    expect(heapGrowthRestart({ ...source, argv: ['/usr/bin/bun', '/app/src/main.ts', 'key', 'list'] })).toBeNull()
    expect(heapGrowthRestart({ ...source, argv: ['/usr/bin/bun', '/app/src/main.ts'] })).toBeNull()
  })

  const dir = mkdtempSync(join(tmpdir(), 'heap-growth-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  test('a real `serve` runs under the option in the same process (same pid), answers, and stops cleanly', async () => {
    const server = await startServer(join(dir, 'a.db'))
    try {
      const environ = readFileSync(`/proc/${server.proc.pid}/environ`, 'utf8').split('\0')
      expect(environ).toContain(`${HEAP_GROWTH_VARIABLE}=${HEAP_GROWTH}`)
      expect((await fetch(`${server.url}/health`)).status).toBe(200)
    } finally {
      expect(await server.stop()).toBe(0)
    }
  })

  test('an operator\'s own value is the one the server runs under', async () => {
    const server = await startServer(join(dir, 'b.db'), { [HEAP_GROWTH_VARIABLE]: '2' })
    try {
      expect(readFileSync(`/proc/${server.proc.pid}/environ`, 'utf8').split('\0')).toContain(`${HEAP_GROWTH_VARIABLE}=2`)
    } finally {
      await server.stop()
    }
  })
})
