// What a page test of the application opens with: a harness served over loopback, a real browser, and the folder its
// screenshots go to; closed together.
import { mkdirSync } from 'node:fs'
import type { Browser } from 'playwright-core'
import { launchChromium } from './browser'
import { makeHarness, type Harness } from './harness'

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
