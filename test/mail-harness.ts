// The harness of a test file whose mail goes out through a real SMTP server for tests (src/adapters/smtp-test-server).
import { afterAll, beforeAll, beforeEach } from 'bun:test'
import { startTestSmtpServer, type TestSmtpServer } from '../src/adapters/smtp-test-server'
import { type Harness, makeHarness } from './harness'

/**
 * The harness of a test file with its mail relayed to a test SMTP server: both made before the file's first test and
 * closed after its last, handed to `use`. Before each test the server forgets what it received and, with
 * `freshMinute`, the fixed clock moves a minute on, so that the test opens a fresh rate-limit minute for its keys.
 */
export function mailHarnessForFile(
  use: (h: Harness, smtp: TestSmtpServer) => void,
  opts: Parameters<typeof makeHarness>[0] & { freshMinute?: boolean } = {},
): void {
  const { freshMinute, ...made } = opts
  let h: Harness | undefined
  let smtp: TestSmtpServer | undefined
  beforeAll(async () => {
    smtp = await startTestSmtpServer()
    h = await makeHarness({ ...made, config: { ...made.config, mailRelay: smtp.url } })
    use(h, smtp)
  })
  afterAll(async () => {
    await h?.close()
    await smtp?.close()
  })
  beforeEach(() => {
    if (freshMinute) h!.clock.advance(61_000)
    smtp!.received.length = 0
  })
}
