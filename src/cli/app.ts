// `invoicing app create|webhook set`: OAuth apps (extensions §10) owned by a person; secrets are shown only here.
import type { Deps } from '../deps'
import { createApp, setAppWebhook } from '../modules/oauth'
import { findPerson } from '../modules/people'
import { NotFound } from '../shared/errors'
import { allowOnly, UsageError, type Args } from './args'
import { print } from './output'

export const APP_USAGE = [
  'app create --owner EMAIL --name N --redirect-uri URI [--redirect-uri URI2 ...] [--public]',
  'app webhook set CLIENT_ID --url U [--events a,b]',
]

export async function appCommand(deps: Deps, args: Args): Promise<void> {
  const [, sub, verb, clientId] = args.words
  if (sub === 'create' && !verb) {
    allowOnly(args, ['owner', 'name', 'redirect-uri', 'public'])
    if (!args.options.owner || args.options.name === undefined) throw new UsageError(`usage: invoicing ${APP_USAGE[0]}`)
    const owner = await findPerson(deps, args.options.owner)
    if (!owner)
      throw new NotFound(`No person with the email ${args.options.owner}; add them first with invoicing person add.`)
    return print(
      args,
      await createApp(deps.db, deps.clock, {
        ownerPersonId: owner.id,
        name: args.options.name,
        redirectUris: args.lists['redirect-uri'] ?? [],
        public: args.flags.has('public'),
      }),
    )
  }
  if (sub === 'webhook' && verb === 'set') {
    allowOnly(args, ['url', 'events'])
    if (!clientId || !args.options.url) throw new UsageError(`usage: invoicing ${APP_USAGE[1]}`)
    const events = args.options.events
      ? args.options.events
          .split(',')
          .map((e) => e.trim())
          .filter(Boolean)
      : undefined
    return print(
      args,
      await setAppWebhook(
        { db: deps.db, clock: deps.clock, resolve: deps.resolve, allowPrivate: deps.config.webhookAllowPrivate },
        clientId,
        { url: args.options.url, events },
      ),
    )
  }
  throw new UsageError(`usage: invoicing ${APP_USAGE.join(' | ')}`)
}
