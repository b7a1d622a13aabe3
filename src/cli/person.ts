// `invoicing person add|link` and `invoicing member add|list|remove` (extensions §8).
import { publicBaseUrl, publicUrlOf } from '../config'
import type { Deps } from '../deps'
import { resolveBusiness } from '../modules/business'
import {
  addMember,
  addPerson,
  deletePerson,
  listMembers,
  newSignInLink,
  presentMember,
  removeMember,
  signInLinkPath,
} from '../modules/people'
import { allowOnly, UsageError, type Args } from './args'
import { print } from './output'

export async function personCommand(deps: Deps, args: Args): Promise<void> {
  const [, sub] = args.words
  // --public-url wins over INVOICING_PUBLIC_URL (extensions §8): the operator names the address people will open.
  const base = publicUrlOf(args.options['public-url'], '--public-url') ?? publicBaseUrl(deps.config)
  if (sub === 'add') {
    allowOnly(args, ['email', 'name', 'public-url'])
    const { person, token } = await addPerson(deps, { email: args.options.email, name: args.options.name })
    return print(args, {
      id: person.id,
      email: person.email,
      name: person.name,
      sign_in_link: base + signInLinkPath(token),
    })
  }
  if (sub === 'link') {
    allowOnly(args, ['email', 'public-url'])
    const { person, token } = await newSignInLink(deps, args.options.email)
    return print(args, { id: person.id, email: person.email, sign_in_link: base + signInLinkPath(token) })
  }
  if (sub === 'delete') {
    allowOnly(args, ['email'])
    return print(args, { ...(await deletePerson(deps, args.options.email)), deleted: true })
  }
  throw new UsageError(
    'usage: invoicing person add --email E --name N [--public-url URL] | invoicing person link --email E [--public-url URL] | invoicing person delete --email E',
  )
}

export async function memberCommand(deps: Deps, args: Args): Promise<void> {
  const [, sub, ref] = args.words
  if (!ref || !['add', 'list', 'remove'].includes(sub ?? '')) {
    throw new UsageError(
      'usage: invoicing member add BUSINESS_ID --email E --role owner|admin|member|viewer | list BUSINESS_ID | remove BUSINESS_ID --email E',
    )
  }
  const b = await resolveBusiness(deps.db.read, ref)
  if (sub === 'add') {
    allowOnly(args, ['email', 'role'])
    return print(
      args,
      presentMember(await addMember(deps, b.id, { email: args.options.email, role: args.options.role })),
    )
  }
  if (sub === 'list') {
    allowOnly(args, [])
    return print(args, (await listMembers(deps, b.id)).map(presentMember))
  }
  allowOnly(args, ['email'])
  await removeMember(deps, b.id, args.options.email)
  return print(args, { business_id: b.publicId, email: args.options.email, removed: true })
}
