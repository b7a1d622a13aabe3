// The numbering module's public face: patterns, counters, judging a requested number and taking the next.
export {
  numberingFor,
  numberingPattern,
  render,
  judge,
  take,
  checkPattern,
  storePattern,
  receiptNumbering,
  takeReceiptNumber,
  accountCodeNumbering,
  type Numbering,
  type Judgement,
} from './numbering.service'
export { recordTaken } from './numbering.repo'
export { DEFAULT_PATTERNS, type Pattern } from './pattern'
