// `invoicing webhook add|list|roll|delete`: a Business's webhooks; the secret is shown only when added or rolled.
import type { Deps } from '../deps'
import { resolveBusiness } from '../modules/business'
import {
  addWebhook,
  deleteWebhook,
  listWebhooks,
  presentWebhook,
  rollSecret,
  type WebhookDeps,
} from '../modules/webhooks'
import { allowOnly, UsageError, type Args } from './args'
import { print } from './output'

const USAGE =
  'usage: invoicing webhook add BUSINESS_ID --url U [--events a,b] | list BUSINESS_ID | roll BUSINESS_ID WEBHOOK_ID | delete BUSINESS_ID WEBHOOK_ID'

export async function webhookCommand(deps: Deps, args: Args): Promise<void> {
  const [, sub, ref, hookId] = args.words
  if (!ref) throw new UsageError(USAGE)
  const b = await resolveBusiness(deps.db.read, ref)
  const w: WebhookDeps = {
    db: deps.db,
    clock: deps.clock,
    resolve: deps.resolve,
    allowPrivate: deps.config.webhookAllowPrivate,
  }
  switch (sub) {
    case 'add': {
      allowOnly(args, ['url', 'events'])
      if (!args.options.url) throw new UsageError(USAGE)
      const events = args.options.events
        ? args.options.events
            .split(',')
            .map((e) => e.trim())
            .filter(Boolean)
        : []
      return print(args, await addWebhook(w, b.id, { url: args.options.url, events }))
    }
    case 'list':
      allowOnly(args, [])
      return print(
        args,
        (await listWebhooks(w, b.id, 0, 100)).map((h) => presentWebhook(h)),
      )
    case 'roll':
      allowOnly(args, [])
      if (!hookId || !/^\d+$/.test(hookId)) throw new UsageError(USAGE)
      return print(args, await rollSecret(w, b.id, Number(hookId)))
    case 'delete':
      allowOnly(args, [])
      if (!hookId || !/^\d+$/.test(hookId)) throw new UsageError(USAGE)
      await deleteWebhook(w, b.id, Number(hookId))
      return print(args, { id: Number(hookId), deleted: true })
    default:
      throw new UsageError(USAGE)
  }
}
