// The application's operations of a Business's members (extensions §9, settings): add by email (someone new becomes a
// person with a one-time sign-in link), change a Role, remove. The acting member's own Role bounds what they may do.
import { json, type ApplicationOperation } from '../../platform/operation'
import type { Actor } from '../../platform/actor'
import { memberRoles } from '../../db/schema'
import { FieldErrorBag, Permission } from '../../shared/errors'
import { addMember, addPerson, findPerson, removeMember, signInLinkPath } from './people.service'

/** Who changes the membership, as the membership rules know them: an Owner, or an Admin. */
const changer = (a: Actor) => (a.owner ? 'owner' : a.role) as 'owner' | 'admin'

export const peopleAppOperations: ApplicationOperation[] = [
  {
    name: 'members_add',
    description:
      'Adds a member by email with a Role; someone new becomes a person only once the membership would be accepted, and the answer carries their one-time sign-in link (`link_path`).',
    access: 'admin',
    refusals: ['last_owner', 'person_exists'],
    async run(actor, { body }, { deps }) {
      const { email, role, name } = body as { email: string; role: string; name?: string }
      const bag = new FieldErrorBag()
      if (!(memberRoles as readonly string[]).includes(role)) bag.add('role', `must be one of ${memberRoles.join(', ')}`)
      bag.throwIfAny()
      if (role === 'owner' && !actor.owner) throw new Permission('Only an Owner makes or unmakes an Owner.')
      let linkPath: string | null = null
      if (email && !(await findPerson(deps, email))) {
        const added = await addPerson(deps, { email, name: name || email.split('@')[0] })
        linkPath = signInLinkPath(added.token)
      }
      await addMember(deps, actor.businessId, { email, role }, changer(actor))
      return json({ email, role, link_path: linkPath })
    },
  },
  {
    name: 'members_set_role',
    description: "Changes a member's Role (only an Owner makes or unmakes an Owner; a Business keeps one Owner).",
    access: 'admin',
    refusals: ['last_owner'],
    async run(actor, { body }, { deps }) {
      const { email, role } = body as { email: string; role: string }
      await addMember(deps, actor.businessId, { email, role }, changer(actor))
      return json({ email, role })
    },
  },
  {
    name: 'members_remove',
    description: 'Removes a member: they no longer open this Business (a Business keeps one Owner).',
    access: 'admin',
    refusals: ['last_owner'],
    async run(actor, { body }, { deps }) {
      const { email } = body as { email: string }
      await removeMember(deps, actor.businessId, email, changer(actor))
      return json({ email, removed: true })
    },
  },
]
