// The reports module's public face: the four reports as plain functions (for the CLI, jobs and benchmarks).
export { incomeReport } from './income'
export { vatReport } from './vat'
export { overdueReport } from './overdue'
export { clientStatement } from './statement'
export { parsePeriod, type Period } from './period'
export type {
  IncomeReport,
  VatReport,
  VatBand,
  OverdueReport,
  OverdueClient,
  Statement,
  StatementCurrency,
  StatementLine,
} from './reports.model'
export { dashboard, type Dashboard } from './dashboard'
export { incomeCsv, vatCsv, overdueCsv, statementCsv, csvFileName } from './csv'
