// Wires the recurring invoices' background task (extensions §13) to the scheduler: every minute, and once at start.
import type { Deps } from '../deps'
import { runRecurringInvoices } from '../modules/recurring'
import type { Job } from './scheduler'

export function recurringJob(deps: Deps): Job {
  return {
    name: 'recurring-invoices',
    pattern: '0 * * * * *',
    // A restart catches up at once on the dates that came while it was stopped.
    atStart: true,
    run: () => runRecurringInvoices(deps),
  }
}
