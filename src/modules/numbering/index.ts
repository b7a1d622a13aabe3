// The numbering module's public face: patterns, counters, judging a requested number and taking the next.
export {
  TEST_PREFIX,
  numberingFor,
  numberingPattern,
  render,
  judge,
  take,
  checkPattern,
  storePattern,
  atItsEndMessage,
  receiptNumbering,
  takeReceiptNumber,
  accountCodeNumbering,
  type Numbering,
  type Judgement,
} from './numbering.service'
export { recordTaken } from './numbering.repo'
export { DEFAULT_PATTERNS, parsePattern, formatNumber, type Pattern } from './pattern'
