// The start's JIT scale (start-up-jit.ts): the Bun this project pins has Bun.unsafe.setJITPolicy, and bringing the
// usual counts back after the start never keeps a short command alive.
import { expect, test } from 'bun:test'
import { join } from 'node:path'

test('a command that raised the tier-up counts for its start ends as soon as its work does, not a second later', async () => {
  const module = join(import.meta.dir, 'start-up-jit.ts')
  const script = `const { compileLessWhileStarting } = await import(${JSON.stringify(module)}); compileLessWhileStarting(); console.log('done')`
  const t0 = performance.now()
  const p = Bun.spawn({ cmd: [process.execPath, '-e', script], stdout: 'pipe', stderr: 'pipe' })
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited])
  const ms = performance.now() - t0
  // Bun.unsafe.setJITPolicy exists and takes the scale: a Bun without it would fail here, not at every start.
  expect({ code, out: out.trim(), err }).toEqual({ code: 0, out: 'done', err: '' })
  // The timer that restores the usual counts fires after 1000 ms; an unref'd timer lets the process end before it.
  expect(ms).toBeLessThan(900)
})
