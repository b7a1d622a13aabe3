// The recurring module's public face (extensions §13): the background task the jobs run, and the application's reads.
export { runRecurringInvoices, type RecurringRunDeps, type RunReport } from './recurring.run'
export { presentRecurring, type RecurringView } from './recurring.present'
export { datesOf } from './recurring.service'
