// The service's background jobs and when they run.
import type { App } from '../app'
import type { Deps } from '../deps'
import { expireIdempotencyKeys } from '../http/idempotency'
import { pruneRequestLog } from '../http/request-log'
import { REQUEST_LOG_RETENTION_MS } from '../http/request-log.routes'
import { eraseDeletedProducts } from '../modules/products'
import type { Job } from './scheduler'

export function serviceJobs(deps: Deps, app: App): Job[] {
  return [
    // Deleted Products are erased for good 30 days after their deletion.
    { name: 'product-erasure', pattern: '0 41 * * * *', run: () => eraseDeletedProducts(deps) },
    // Buffered request-log entries reach the database within a second.
    { name: 'request-log-flush', pattern: '* * * * * *', run: () => app.requestLog.flush() },
    { name: 'rate-limit-sweep', pattern: '0 * * * * *', run: async () => app.rateLimiter.sweep(deps.clock.now().getTime()) },
    { name: 'idempotency-expiry', pattern: '0 */10 * * * *', run: () => expireIdempotencyKeys(deps.db, deps.clock) },
    {
      name: 'request-log-retention',
      pattern: '0 17 3 * * *',
      run: () => pruneRequestLog(deps.db, new Date(deps.clock.now().getTime() - REQUEST_LOG_RETENTION_MS).toISOString()),
    },
  ]
}
