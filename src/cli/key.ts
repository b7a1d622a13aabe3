// `invoicing key create|list|revoke`: API keys, shown once at creation.
import type { Deps } from '../deps'
import { createApiKey, listApiKeys, resolveBusiness, revokeApiKey, KEY_ROLES, type KeyRole } from '../modules/business'
import { FieldErrorBag } from '../shared/errors'
import { allowOnly, UsageError, type Args } from './args'
import { print } from './output'

export async function keyCommand(deps: Deps, args: Args): Promise<void> {
  const [, sub, ref] = args.words
  if (sub === 'create') {
    allowOnly(args, ['role', 'name'])
    if (!ref) throw new UsageError('usage: invoicing key create BUSINESS_ID --role admin|member|viewer --name NAME')
    const bag = new FieldErrorBag()
    const role = args.options.role
    if (!KEY_ROLES.includes(role as KeyRole)) bag.add('role', 'must be admin, member or viewer')
    if (!args.options.name?.trim()) bag.add('name', 'is required')
    bag.throwIfAny()
    const b = await resolveBusiness(deps.db.read, ref)
    return print(
      args,
      await createApiKey(deps.db, deps.clock, b.id, { name: args.options.name!.trim(), role: role as KeyRole }),
    )
  }
  if (sub === 'list') {
    allowOnly(args, [])
    if (!ref) throw new UsageError('usage: invoicing key list BUSINESS_ID')
    const b = await resolveBusiness(deps.db.read, ref)
    return print(args, await listApiKeys(deps.db, b.id))
  }
  if (sub === 'revoke') {
    allowOnly(args, [])
    if (!ref || !/^\d+$/.test(ref)) throw new UsageError('usage: invoicing key revoke KEY_ID')
    await revokeApiKey(deps.db, deps.clock, Number(ref))
    return print(args, { id: Number(ref), revoked: true })
  }
  throw new UsageError('usage: invoicing key create|list|revoke ...')
}
