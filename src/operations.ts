// The table of operations: every use case of the service, declared once. The API routes and the OpenAPI document
// (doors/api), and the MCP tools (doors/mcp) are built from it; the application's pages call the same operations.
import { businessAppOperations, businessOperations } from './modules/business/business.operations'
import { clientsAppOperations, clientsOperations } from './modules/clients/clients.operations'
import { documentsAppOperations, documentsOperations } from './modules/documents/documents.operations'
import { einvoiceOperations } from './modules/einvoice/einvoice.operations'
import { mailAppOperations, mailOperations } from './modules/mail/mail.operations'
import { connectedAppsOperations } from './modules/oauth/connected-apps.operations'
import { paymentsAppOperations, paymentsOperations, refundsOperations } from './modules/payments/payments.operations'
import { productsAppOperations, productsOperations } from './modules/products/products.operations'
import { reportsOperations } from './modules/reports/reports.operations'
import { webhooksOperations } from './modules/webhooks/webhooks.operations'
import type { ApplicationOperation, Operation } from './platform/operation'
import { requestLogOperations } from './platform/request-log.operations'
import { mailboxAppOperations } from './modules/mailbox/mailbox.operations'
import { peopleAppOperations } from './modules/people/people.operations'
import { bankingAppOperations, bankingOperations } from './modules/banking/banking.operations'
import { remindersAppOperations, remindersOperations } from './modules/reminders/reminders.operations'
import { fxOperations } from './modules/fx/fx.operations'
import { journalAppOperations, journalOperations } from './modules/journal/journal.operations'
import { recurringOperations } from './modules/recurring/recurring.operations'
import { importsOperations } from './modules/imports/imports.operations'
import { outboxAppOperations } from './modules/outbox/outbox.operations'

export type { Operation } from './platform/operation'

/** The operations of the API and MCP doors (each has its route, its OpenAPI entry, and its tool where `mcp`). */
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
  ...bankingOperations,
  ...remindersOperations,
  ...fxOperations,
  ...journalOperations,
  ...recurringOperations,
  ...importsOperations,
  ...refundsOperations,
]

/**
 * What only the application offers (settings the contract gives no API, and the application-only document actions of
 * extensions §9): declared and run exactly as the table's operations, with no route, no OpenAPI entry and no tool.
 */
export const applicationOperations: readonly ApplicationOperation[] = [
  ...documentsAppOperations,
  ...mailAppOperations,
  ...businessAppOperations,
  ...mailboxAppOperations,
  ...peopleAppOperations,
  ...clientsAppOperations,
  ...productsAppOperations,
  ...paymentsAppOperations,
  ...bankingAppOperations,
  ...remindersAppOperations,
  ...journalAppOperations,
  ...outboxAppOperations,
]

/** Every operation the application may run, by name: the table's and its own. */
export const applicationTable: ReadonlyMap<string, ApplicationOperation> = new Map<string, ApplicationOperation>(
  [...operations, ...applicationOperations].map((op) => [op.name, op]),
)
