// The banking module's public face (extensions §15): the statement import for the CLI and the application's pages.
export { importStatement, getStatement, matchEntry } from './banking.service'
export { parseCamt, MAX_STATEMENT_BYTES, type CamtFile, type CamtEntry } from './camt'
export type { StatementView, EntryView } from './banking.present'
