// The imports module's public face: Clients and Products from a CSV file (extensions §19).
export { importClients, importProducts, type Imported } from './imports.service'
export { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS, MAX_IMPORT_ROWS_WORDS, MAX_IMPORT_WORDS } from './csv'
