// The table of operations: every use case of the service, declared once. The API routes and the OpenAPI document
// (doors/api), and the MCP tools (doors/mcp) are built from it; the application's pages call the same operations.
import { businessOperations } from './modules/business/business.operations'
import { clientsOperations } from './modules/clients/clients.operations'
import { documentsOperations } from './modules/documents/documents.operations'
import { einvoiceOperations } from './modules/einvoice/einvoice.operations'
import { mailOperations } from './modules/mail/mail.operations'
import { connectedAppsOperations } from './modules/oauth/connected-apps.operations'
import { paymentsOperations } from './modules/payments/payments.operations'
import { productsOperations } from './modules/products/products.operations'
import { reportsOperations } from './modules/reports/reports.operations'
import { webhooksOperations } from './modules/webhooks/webhooks.operations'
import type { Operation } from './platform/operation'
import { requestLogOperations } from './platform/request-log.operations'

export type { Operation } from './platform/operation'

export const operations: readonly Operation[] = [
  ...businessOperations,
  ...clientsOperations,
  ...productsOperations,
  ...documentsOperations,
  ...mailOperations,
  ...einvoiceOperations,
  ...paymentsOperations,
  ...reportsOperations,
  ...webhooksOperations,
  ...connectedAppsOperations,
  ...requestLogOperations,
]

