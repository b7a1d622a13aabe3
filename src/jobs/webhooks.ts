// Wires webhook delivery to the rest of the service: messages carry documents and Payments as the API answers them.
import type { Deps } from '../deps'
import { systemActor, type Actor } from '../platform/actor'
import { viewDocument } from '../modules/documents'
import { getPayment, getRefund } from '../modules/payments'
import type { DeliveryContext, EngineContext } from '../modules/webhooks'
import { issuerOf, type AppDeliveryContext, type GrantRole } from '../modules/oauth'

/** Messages are built as an Admin key of the Business would read them. */
function adminOf(businessId: number): Actor {
  return systemActor({ businessId }, 'webhook')
}

/** What every delivery of webhook messages reads from the service's dependencies. */
function engineContext(deps: Deps): EngineContext {
  return {
    db: deps.db,
    clock: deps.clock,
    logger: deps.logger,
    sender: deps.sender,
    resolve: deps.resolve,
    allowPrivate: deps.config.webhookAllowPrivate,
  }
}

/** What a message carries: its document, Refund or Payment as the API answers it to `actor`. */
function subjectAs(deps: Deps, actor: Actor, kind: 'document' | 'payment' | 'refund', id: number): Promise<unknown> {
  return kind === 'document'
    ? viewDocument(deps, deps.db.read, actor, id)
    : kind === 'refund'
      ? getRefund(deps, actor, id)
      : getPayment(deps, actor, id)
}

export function deliveryContext(deps: Deps): DeliveryContext {
  return {
    ...engineContext(deps),
    build: (kind, businessId, id) => subjectAs(deps, adminOf(businessId), kind, id),
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
    ...engineContext(deps),
    mailRelay: deps.config.mailRelay,
    mailer: deps.mailer,
    ownerEmail,
    serviceFrom: `no-reply@${new URL(issuerOf(deps.config)).hostname}`,
    build: (kind, businessId, id, role) => subjectAs(deps, appActorOf(businessId, role), kind, id),
  }
}
