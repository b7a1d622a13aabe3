import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SERVING_OPTIONS, servingRestart } from './serving-options'
import { startServer } from '../../test/processes'

const environOf = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')
const entries = Object.entries(SERVING_OPTIONS)

describe('a serving process runs under the runtime options that bound its memory, by starting again with them', () => {
  const source = {
    execPath: '/usr/bin/bun',
    argv: ['/usr/bin/bun', '/app/src/main.ts', 'serve', '--port', '0'],
    execArgv: ['--smol'],
    env: { PATH: '/bin' },
  }

  test('from source: bun again, with its flags, the same script and arguments, and the options added to the environment', () => {
    expect(servingRestart(source)).toEqual({
      file: '/usr/bin/bun',
      args: ['/usr/bin/bun', '--smol', '/app/src/main.ts', 'serve', '--port', '0'],
      env: { PATH: '/bin', ...SERVING_OPTIONS },
    })
  })

  test('the compiled binary starts itself again with its own arguments', () => {
    const r = servingRestart({
      execPath: '/opt/invoicing',
      argv: ['bun', '/$bunfs/root/invoicing', 'sandbox', '--port', '9000'],
      execArgv: [],
      env: {},
    })
    expect(r?.args).toEqual(['/opt/invoicing', 'sandbox', '--port', '9000'])
  })

  test("never twice, an operator's own values kept, never for a command that does not serve", () => {
    expect(servingRestart({ ...source, env: { ...SERVING_OPTIONS } })).toBeNull()
    const [name] = entries[0]!
    // One option set by the operator: the restart adds the others and leaves theirs as it is.
    expect(servingRestart({ ...source, env: { [name]: 'mine' } })?.env).toEqual({ ...SERVING_OPTIONS, [name]: 'mine' })
    expect(servingRestart({ ...source, argv: ['/usr/bin/bun', '/app/src/main.ts', 'key', 'list'] })).toBeNull()
    expect(servingRestart({ ...source, argv: ['/usr/bin/bun', '/app/src/main.ts', 'serve', '--help'] })).toBeNull()
    expect(servingRestart({ ...source, argv: ['/usr/bin/bun', '/app/src/main.ts', '--version'] })).toBeNull()
  })

  test('with no command the CLI serves, and so restarts; options before the command do not hide it', () => {
    expect(servingRestart({ ...source, argv: ['/usr/bin/bun', '/app/src/main.ts'] })?.env).toEqual({
      PATH: '/bin',
      ...SERVING_OPTIONS,
    })
    expect(servingRestart({ ...source, argv: ['/usr/bin/bun', '/app/src/main.ts', '--port', '9000'] })).not.toBeNull()
    expect(
      servingRestart({ ...source, argv: ['/usr/bin/bun', '/app/src/main.ts', '--db', 'x.db', 'key', 'list'] }),
    ).toBeNull()
  })

  const dir = mkdtempSync(join(tmpdir(), 'serving-options-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  test('a real `serve` runs under every option in the same process (same pid), answers, and stops cleanly: this Bun knows each option', async () => {
    const server = await startServer(join(dir, 'a.db'))
    try {
      const environ = environOf(server.proc.pid)
      for (const [k, v] of entries) expect(environ).toContain(`${k}=${v}`)
      expect((await fetch(`${server.url}/health`)).status).toBe(200)
    } finally {
      expect(await server.stop()).toBe(0)
    }
  })

  test('the allocator runs under its option: mimalloc itself reports the value it read', async () => {
    // MIMALLOC_VERBOSE makes mimalloc print every option it read, at each start: before the restart its own value,
    // after it ours. An option name it does not know would print nothing, and this would fail.
    const server = await startServer(join(dir, 'c.db'), { MIMALLOC_VERBOSE: '1' })
    try {
      const read = [...server.log().matchAll(/option 'purge_holes_large_floor_epochs': (\d+)/g)].map((m) => m[1])
      expect(read.at(-1)).toBe(SERVING_OPTIONS.MIMALLOC_PURGE_HOLES_LARGE_FLOOR_EPOCHS)
    } finally {
      await server.stop()
    }
  })

  test("an operator's own value is the one the server runs under", async () => {
    const [name] = entries[0]!
    const server = await startServer(join(dir, 'b.db'), { [name]: '2' })
    try {
      expect(environOf(server.proc.pid)).toContain(`${name}=2`)
    } finally {
      await server.stop()
    }
  })
})
