// The real browser the page tests drive: Debian's chromium through playwright-core (Playwright's own download cannot
// be reached here), without the sandbox (CI runs as root) and without the background traffic a profile starts.
import { chromium, type Browser } from 'playwright-core'

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS })
}
