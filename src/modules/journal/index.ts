// The journal module's public face: appending entries from the services that change records, reading and verifying.
export { ENTRY_KINDS, GENESIS, canonical, entryHash, entryText, type Entry, type EntryKind } from './chain'
export {
  backfillJournal,
  chainHead,
  exportEntries,
  headsOf,
  journalDocument,
  journalPayment,
  journalPaymentChange,
  journalSellerChange,
  listEntries,
  sellerDetails,
  verifyAll,
  verifyBusiness,
  type Verdict,
} from './journal.service'
export type { PaymentRecordRow } from './records'
