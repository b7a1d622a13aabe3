// The business module's public face for other modules, the HTTP layer and the CLI.
export * from './api-keys'
export * from './business.service'
export { presentBusiness, presentBankAccount, einvoiceIdentity } from './business.present'
