// Wires webhook delivery to the rest of the service: messages carry documents and Payments as the API answers them.
import type { Deps } from '../deps'
import { systemActor, type Actor } from '../platform/actor'
import { viewDocument } from '../modules/documents'
import { getPayment } from '../modules/payments'
import type { DeliveryContext } from '../modules/webhooks'

/** Messages are built as an Admin key of the Business would read them. */
function adminOf(businessId: number): Actor {
  return systemActor({ businessId }, 'webhook')
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
