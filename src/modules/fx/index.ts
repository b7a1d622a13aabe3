// The fx module's public face: reference rates (ECB files, the daily fetch) and conversion to the Business's currency.
export { accountingFigures, convertAmount, crossRate, parseRate, RATE_DIGITS, type AccountingFigures } from './convert'
export { EcbFileError, parseEcbXml, type EcbDay } from './ecb'
export {
  ECB_DAILY_URL,
  exchangeRatesOn,
  fetchDue,
  fetchReferenceRates,
  historyUrlOf,
  importRates,
  referenceRate,
  type FetchOutcome,
  type FxFetchDeps,
  type ImportResult,
} from './fx.service'
