// Settings → Members: invite a person by email with a Role, change a Role, remove. A Business keeps at least one
// Owner; only an Owner makes or unmakes an Owner. An invitation goes by email to the person, never to this page, and
// the page answers alike whether or not the email has an account (extensions §8); a pending member is listed by email
// only, since their name would tell that they had one.
import { ROLES } from '../../../../platform/actor'
import { listMembers } from '../../../../modules/people'
import type { FormState, InBusiness } from '../../context'
import type { AppKit } from '../../kit'
import { Field, Notice, PostForm, Refused, Select, When, esc } from '../../ui'
import { ButtonForm, FieldsForm, Section } from '../../settings-parts'
import { RecordsTable } from '../../list'
import { SettingsLayout, settingsPage } from './index'

const ROLE_WORDS = { owner: 'Owner', admin: 'Admin', member: 'Member', viewer: 'Viewer' } as const

async function MembersPage({ c, form }: { c: InBusiness; form: FormState }): Promise<string> {
  const members = await listMembers(c.deps, c.business.id)
  // An Admin cannot hand out the Owner Role.
  const roles = ROLES.filter((r) => c.role === 'owner' || r !== 'owner').map((r) => [r, ROLE_WORDS[r]] as const)
  return (
    <SettingsLayout c={c} title="Members" path="/members">
      <h1>Members</h1>
      <p class="lead">
        People who open this Business in the application, each with a Role. Someone invited joins once they accept.
      </p>
      <Notice text={c.notice} />
      <Refused state={form} shown={['email', 'role']} />
      {form.code !== null && MAIL_REFUSALS.has(form.code) ? (
        <Notice
          kind="bad"
          text="Invitations go out by email, and this Business has no way to send one now. Nobody was added; the person who runs this service can add people at once."
        />
      ) : (
        ''
      )}
      <RecordsTable
        rows={members}
        columns={[
          {
            head: 'Person',
            key: true,
            cell: (m) =>
              m.state === 'pending' ? (
                <>
                  {esc(m.email)}
                  <div class="hint">
                    <span class="tag">Invited, pending</span>
                  </div>
                </>
              ) : (
                <>
                  {esc(m.name)}
                  <div class="hint">{esc(m.email)}</div>
                </>
              ),
          },
          {
            head: 'Role',
            cell: (m) => {
              if (m.role === 'owner' && c.role !== 'owner') return ROLE_WORDS.owner
              const i = members.indexOf(m)
              return (
                <PostForm action={`${c.base}/settings/members/role`} token={c.csrf} class="row pair">
                  <input type="hidden" name="email" value={esc(m.email)} />
                  <label class="skip" for={`role-${i}`}>
                    Role of {esc(shown(m))}
                  </label>
                  <select id={`role-${i}`} name="role">
                    {roles.map(([r, w]) => (
                      <option value={r} selected={r === m.role}>
                        {w}
                      </option>
                    ))}
                  </select>
                  <button type="submit" class="quiet">
                    Save
                  </button>
                </PostForm>
              )
            },
          },
          { head: 'Since', cell: (m) => <When at={m.createdAt} /> },
          {
            head: 'Remove',
            actions: true,
            headShown: true,
            cell: (m) =>
              m.role === 'owner' && c.role !== 'owner' ? (
                ''
              ) : (
                <ButtonForm
                  action={`${c.base}/settings/members/remove`}
                  token={c.csrf}
                  hidden={{ name: 'email', value: m.email }}
                  kind="danger"
                  label="Remove"
                  ariaLabel={`Remove ${shown(m)}`}
                />
              ),
          },
        ]}
      />
      <Section id="add-member" title="Invite a member">
        <p class="hint">The invitation goes to the email address; they join once they accept it, signed in.</p>
        <FieldsForm action={`${c.base}/settings/members`} token={c.csrf} submit="Send invitation">
          <Field name="email" label="Email" type="email" state={form} required maxlength={255} />
          <Field name="name" label="Name (used if they have no account yet)" state={form} maxlength={255} />
          <Select name="role" label="Role" state={form} value="member" options={roles} />
        </FieldsForm>
      </Section>
    </SettingsLayout>
  )
}

/** A member as the list names them: a pending one by email only. */
/** The refusals of an invitation that could not go out: the page adds what they mean here (the catalog speaks of Sends). */
const MAIL_REFUSALS = new Set(['no_mail_provider', 'mail_account_lost', 'sending_limit_reached'])

function shown(m: { state: string; name: string; email: string }): string {
  return m.state === 'pending' ? m.email : m.name
}

export function membersSettings(kit: AppKit): void {
  const page = settingsPage(kit, '/settings/members', (c, form) => <MembersPage c={c} form={form} />)
  page.change('', 'members_invite', 'invitation_sent', (d) => ({
    body: { email: d.get('email') ?? '', name: d.get('name') ?? '', role: d.get('role') ?? '' },
  }))
  page.change('/role', 'members_set_role', 'member_saved', (d) => ({
    body: { email: d.get('email') ?? '', role: d.get('role') ?? '' },
  }))
  page.change('/remove', 'members_remove', 'member_removed', (d) => ({ body: { email: d.get('email') ?? '' } }))
}
