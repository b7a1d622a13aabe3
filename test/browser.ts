// The real browser the page tests drive: Debian's chromium through playwright-core (Playwright's own download cannot
// be reached here), without the sandbox (CI runs as root) and without the background traffic a profile starts.
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS })
}

/**
 * Screenshots of the page now open at both widths the pages are checked at, a wide laptop (1280) and a narrow phone
 * (390), into `dir` as NAME-wide.png and NAME-narrow.png; at each width nothing may run wider than the window.
 */
export async function shootBothWidths(page: Page, dir: string, name: string): Promise<void> {
  for (const [width, label] of [
    [1280, 'wide'],
    [390, 'narrow'],
  ] as const) {
    await page.setViewportSize({ width, height: width === 1280 ? 800 : 844 })
    await page.waitForLoadState('load')
    await page.waitForFunction(() => document.readyState === 'complete', undefined, { polling: 100 })
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth)
    if (scrollWidth > width) throw new Error(`${name} at ${width}: the page is ${scrollWidth} wide`)
    await page.screenshot({ path: join(dir, `${name}-${label}.png`), fullPage: true })
  }
  await page.setViewportSize({ width: 1280, height: 800 })
}
