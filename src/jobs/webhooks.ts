// Wires webhook delivery to the rest of the service: messages carry documents and Payments as the API answers them.
import type { Deps } from '../deps'
import { systemActor, type Actor } from '../platform/actor'
import { viewDocument } from '../modules/documents'
import { getPayment, getRefund } from '../modules/payments'
import type { DeliveryContext } from '../modules/webhooks'
import { issuerOf, type AppDeliveryContext, type GrantRole } from '../modules/oauth'

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
      kind === 'document'
        ? viewDocument(deps, deps.db.read, adminOf(businessId), id)
        : kind === 'refund'
          ? getRefund(deps, adminOf(businessId), id)
          : getPayment(deps, adminOf(businessId), id),
  }
}

/** An OAuth app's messages are built as a token of the app's Role in that Business would read them. */
function appActorOf(businessId: number, role: GrantRole): Actor {
  return { ...systemActor({ businessId }, 'app webhook'), role, kind: 'connected_app' }
}

export function appDeliveryContext(
  deps: Deps,
  ownerEmail: (personId: number) => Promise<string | null> = async () => null,
): AppDeliveryContext {
  return {
    db: deps.db,
    clock: deps.clock,
    logger: deps.logger,
    sender: deps.sender,
    resolve: deps.resolve,
    allowPrivate: deps.config.webhookAllowPrivate,
    mailRelay: deps.config.mailRelay,
    mailer: deps.mailer,
    ownerEmail,
    serviceFrom: `no-reply@${new URL(issuerOf(deps.config)).hostname}`,
    build: (kind, businessId, id, role) =>
      kind === 'document'
        ? viewDocument(deps, deps.db.read, appActorOf(businessId, role), id)
        : kind === 'refund'
          ? getRefund(deps, appActorOf(businessId, role), id)
          : getPayment(deps, appActorOf(businessId, role), id),
  }
}
