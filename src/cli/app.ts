// `invoicing app webhook set`: an OAuth app's own webhook (its secret is shown only here). `app create` comes with
// people (an app's owner is a person).
import type { Deps } from '../deps'
import { setAppWebhook } from '../modules/oauth'
import { allowOnly, UsageError, type Args } from './args'
import { print } from './output'

export const APP_USAGE = ['app webhook set CLIENT_ID --url U [--events a,b]']

export async function appCommand(deps: Deps, args: Args): Promise<void> {
  const [, sub, verb, clientId] = args.words
  if (sub === 'webhook' && verb === 'set') {
    allowOnly(args, ['url', 'events'])
    if (!clientId || !args.options.url) throw new UsageError(`usage: invoicing ${APP_USAGE[0]}`)
    const events = args.options.events ? args.options.events.split(',').map((e) => e.trim()).filter(Boolean) : undefined
    return print(args, await setAppWebhook({ db: deps.db, clock: deps.clock, resolve: deps.resolve, allowPrivate: deps.config.webhookAllowPrivate }, clientId, { url: args.options.url, events }))
  }
  throw new UsageError(`usage: invoicing ${APP_USAGE.join(' | ')}`)
}
