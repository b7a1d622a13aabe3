// What a page test of the application opens with: a harness served over loopback, a real browser, and the folder its
// screenshots go to; closed together.
import { afterAll, beforeAll } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { launchChromium } from './browser'
import { makeHarness, type Harness } from './harness'

/** Where the page tests' screenshots go, wide and narrow. */
export const SHOTS = join(import.meta.dir, 'screenshots')

export interface ServedBrowser {
  h: Harness
  /** http://127.0.0.1:PORT, where the harness's app answers. */
  origin: string
  browser: Browser
  close(): Promise<void>
}

export async function servedInBrowser(
  shots: string,
  options: Parameters<typeof makeHarness>[0] = { config: { rateLimit: 1_000_000 } },
): Promise<ServedBrowser> {
  mkdirSync(shots, { recursive: true })
  const h = await makeHarness(options)
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (req) => h.app.fetch(req) })
  const browser = await launchChromium()
  return {
    h,
    origin: `http://127.0.0.1:${server.port}`,
    browser,
    async close() {
      await browser.close()
      server.stop(true)
      await h.close()
    },
  }
}

/**
 * servedInBrowser for a whole test file: made before its first test (`ready` then sets up what the file's tests share)
 * and closed after its last.
 */
export function servedBrowserForFile(
  ready: (served: ServedBrowser) => void | Promise<void>,
  options?: Parameters<typeof makeHarness>[0],
): void {
  let served: ServedBrowser | undefined
  beforeAll(async () => {
    served = await servedInBrowser(SHOTS, options)
    await ready(served)
  }, 60_000)
  afterAll(() => served?.close())
}
