// The daily-work pages of a Business (extensions §9): dashboard, documents, Payments and Receipts, Clients, Products,
// reports. Registered in this order: fixed paths (/documents/new, /documents/totals) before the ones with an id.
import type { AppKit } from '../../kit'
import { clientsRoutes } from './clients'
import { dashboardRoutes } from './dashboard'
import { documentsRoutes } from './documents'
import { editorRoutes } from './editor'
import { importRoutes } from './imports'
import { pickerRoutes } from './picker'
import { paymentsRoutes } from './payments'
import { productsRoutes } from './products'
import { reportsRoutes } from './reports'
import { bankRoutes } from './bank'
import { recurringRoutes } from './recurring'
import { outboxRoutes } from './outbox'

export function dailyRoutes(kit: AppKit): void {
  dashboardRoutes(kit)
  editorRoutes(kit)
  pickerRoutes(kit)
  documentsRoutes(kit)
  paymentsRoutes(kit)
  importRoutes(kit)
  clientsRoutes(kit)
  productsRoutes(kit)
  reportsRoutes(kit)
  bankRoutes(kit)
  recurringRoutes(kit)
  outboxRoutes(kit)
}
