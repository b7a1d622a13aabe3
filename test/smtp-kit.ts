// A test file's harness whose service mail relay is a real SMTP server on 127.0.0.1 (adapters/smtp-test-server).
import { afterAll, beforeAll } from 'bun:test'
import type { Config } from '../src/config'
import { startTestSmtpServer, type TestSmtpServer } from '../src/adapters/smtp-test-server'
import { makeHarness, type Harness } from './harness'

/**
 * Starts the SMTP server and a harness relaying through it (`config` on top) before the file's first test, hands both
 * to `use`, and closes them after its last.
 */
export function relayHarnessForFile(
  use: (t: { h: Harness; smtp: TestSmtpServer }) => void,
  config: Partial<Config> = {},
): void {
  let smtp: TestSmtpServer | undefined
  let h: Harness | undefined
  beforeAll(async () => {
    smtp = await startTestSmtpServer()
    h = await makeHarness({ config: { mailRelay: smtp.url, ...config } })
    use({ h, smtp })
  })
  afterAll(async () => {
    await h?.close()
    await smtp?.close()
  })
}
