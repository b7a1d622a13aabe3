// The service's background jobs and when they run.
import type { Deps } from '../deps'
import { expireIdempotencyKeys } from '../platform/idempotency'
import { pruneRequestLog, type RequestLogWriter } from '../platform/request-log'
import type { RateCount } from '../platform/rate-count'
import { REQUEST_LOG_RETENTION_MS } from '../platform/request-log.operations'
import { eraseDeletedProducts } from '../modules/products'
import { deliverDueAppWebhooks, dispatchAppWebhooks, expireConnections, pruneAppDeliveries } from '../modules/oauth'
import { deliverDue, dispatchOutbox, pruneDeliveries } from '../modules/webhooks'
import type { Job } from './scheduler'
import { appDeliveryContext, deliveryContext } from './webhooks'
import { findPersonById } from '../modules/people'
import { reminderJobs } from './reminders'
import { fetchDue, fetchReferenceRates } from '../modules/fx'
import { recurringJob } from './recurring'

/** What the jobs need of the running service: the platform's request-log buffer and rate count that the app holds. */
export interface RunningPlatform {
  requestLog: Pick<RequestLogWriter, 'flush'>
  rateLimiter: Pick<RateCount, 'sweep'>
}

export function serviceJobs(deps: Deps, app: RunningPlatform): Job[] {
  const delivery = deliveryContext(deps)
  // The failure email goes to the app's owner, a person.
  const appDelivery = appDeliveryContext(
    deps,
    async (personId) => (await findPersonById(deps.db.read, personId))?.email ?? null,
  )
  return [
    // OAuth apps' webhooks: the same pace and retention as a Business's own.
    { name: 'app-webhook-dispatch', pattern: '* * * * * *', run: () => dispatchAppWebhooks(appDelivery) },
    { name: 'app-webhook-delivery', pattern: '* * * * * *', run: () => deliverDueAppWebhooks(appDelivery) },
    { name: 'app-webhook-retention', pattern: '0 29 4 * * *', run: () => pruneAppDeliveries(deps.db, deps.clock) },
    // Committed events become deliveries, and due attempts go out, within a second; a restart loses nothing.
    { name: 'webhook-dispatch', pattern: '* * * * * *', run: () => dispatchOutbox(delivery) },
    { name: 'webhook-delivery', pattern: '* * * * * *', run: () => deliverDue(delivery) },
    { name: 'webhook-retention', pattern: '0 23 4 * * *', run: () => pruneDeliveries(deps.db, deps.clock) },
    // Deleted Products are erased for good 30 days after their deletion.
    { name: 'product-erasure', pattern: '0 41 * * * *', run: () => eraseDeletedProducts(deps) },
    // Buffered request-log entries reach the database within a second.
    { name: 'request-log-flush', pattern: '* * * * * *', run: () => app.requestLog.flush() },
    {
      name: 'rate-limit-sweep',
      pattern: '0 * * * * *',
      run: async () => {
        await app.rateLimiter.sweep(deps.clock.now().getTime())
      },
    },
    { name: 'idempotency-expiry', pattern: '0 */10 * * * *', run: () => expireIdempotencyKeys(deps.db, deps.clock) },
    // Connected apps unused for 90 days end (their tokens are already refused at once); spent codes and tokens go.
    { name: 'connected-app-expiry', pattern: '0 7 * * * *', run: () => expireConnections(deps.db, deps.clock) },
    {
      name: 'request-log-retention',
      pattern: '0 17 3 * * *',
      run: () =>
        pruneRequestLog(deps.db, new Date(deps.clock.now().getTime() - REQUEST_LOG_RETENTION_MS).toISOString()),
    },
    ...reminderJobs(deps),
    // The ECB's reference rates (extensions §16): checked hourly, fetched while none is held and each afternoon
    // until the day's are in (fetchDue says when).
    {
      name: 'exchange-rates-fetch',
      pattern: '0 5 * * * *',
      run: async () => {
        if (await fetchDue(deps.db.read, deps.clock.now())) await fetchReferenceRates(fxFetchDeps(deps))
      },
    },
    // Recurring invoices: each date that has come makes its Invoice (extensions §13).
    recurringJob(deps),
  ]
}

/** What the daily exchange-rate fetch needs of the service. */
export function fxFetchDeps(deps: Deps) {
  return {
    db: deps.db,
    clock: deps.clock,
    logger: deps.logger,
    fetcher: deps.fetcher,
    resolve: deps.resolve,
    url: deps.config.fxUrl,
    allowPrivate: deps.config.fxAllowPrivate,
  }
}
