// Wires webhook delivery to the rest of the service: messages carry documents and Payments as the API answers them.
import type { Deps } from '../deps'
import type { Credential } from '../modules/business'
import { viewDocument } from '../modules/documents'
import { getPayment } from '../modules/payments'
import type { DeliveryContext } from '../modules/webhooks'

/** Messages are built as an Admin key of the Business would read them. */
function adminOf(businessId: number): Credential {
  return { apiKeyId: 0, name: 'webhook', role: 'admin', businessId, businessPublicId: '', plan: 'pro', isTest: false, currency: '' }
}

export function deliveryContext(deps: Deps): DeliveryContext {
  return {
    db: deps.db,
    clock: deps.clock,
    logger: deps.logger,
    sender: deps.sender,
    resolve: deps.resolve,
    allowPrivate: deps.config.webhookAllowPrivate,
    build: (kind, businessId, id) =>
      kind === 'document' ? viewDocument(deps, deps.db.read, adminOf(businessId), id) : getPayment(deps, adminOf(businessId), id),
  }
}
