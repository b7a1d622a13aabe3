// The application's operations of a Business's members (extensions §8, §9 settings): invite by email with a Role (the
// invitation goes to the person by email), change a Role, remove. The acting member's own Role bounds what they may do.
import { publicBaseUrl } from '../../config'
import { json, type ApplicationOperation } from '../../platform/operation'
import type { Actor } from '../../platform/actor'
import { changeMemberRole, removeMember } from './people.service'
import { inviteMember } from './invitations.service'

/** Who changes the membership, as the membership rules know them: an Owner, or an Admin. */
const changer = (a: Actor) => (a.owner ? 'owner' : a.role) as 'owner' | 'admin'

export const peopleAppOperations: ApplicationOperation[] = [
  {
    name: 'members_invite',
    description:
      'Invites a person by email with a Role; the invitation goes to them by email, whether or not they have an account.',
    access: 'admin',
    refusals: ['last_owner', 'person_exists', 'no_mail_provider', 'mail_account_lost', 'sending_limit_reached'],
    async run(actor, { body }, { deps }) {
      const { email, name, role } = body as { email: string; name: string; role: string }
      await inviteMember(
        deps,
        {
          businessId: actor.businessId,
          role: changer(actor),
          name: actor.name,
          publicBase: publicBaseUrl(deps.config),
        },
        { email, name, role },
      )
      return json({ email, role, invited: true })
    },
  },
  {
    name: 'members_set_role',
    description: "Changes a member's Role (only an Owner makes or unmakes an Owner; a Business keeps one Owner).",
    access: 'admin',
    refusals: ['last_owner'],
    async run(actor, { body }, { deps }) {
      const { email, role } = body as { email: string; role: string }
      return json(await changeMemberRole(deps, actor.businessId, { email, role }, changer(actor)))
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
