// Settings → Members: add a person by email with a Role, change a Role, remove. A Business keeps at least one Owner;
// only an Owner makes or unmakes an Owner. Someone new gets a one-time sign-in link, shown here to pass on.
import { memberRoles } from '../../../../db/schema'
import { listMembers } from '../../../../modules/people'
import { EMPTY_FORM, type FormState, type InBusiness } from '../../context'
import type { AppKit } from '../../kit'
import { Field, Notice, PostForm, Refused, Select, ShownOnce, When, esc } from '../../ui'
import { SettingsLayout } from './index'

const ROLE_WORDS = { owner: 'Owner', admin: 'Admin', member: 'Member', viewer: 'Viewer' } as const

async function MembersPage({ c, form, link }: { c: InBusiness; form: FormState; link?: { email: string; url: string } }): Promise<string> {
  const members = await listMembers(c.deps, c.business.id)
  // An Admin cannot hand out the Owner Role.
  const roles = memberRoles.filter((r) => c.role === 'owner' || r !== 'owner').map((r) => [r, ROLE_WORDS[r]] as const)
  return (
    <SettingsLayout c={c} title="Members" path="/members">
      <h1>Members</h1>
      <p class="lead">People who open this Business in the application, each with a Role.</p>
      <Notice text={c.notice} />
      {link ? <ShownOnce label={`${link.email} is new here: send them this sign-in link (one use, 30 minutes) to choose a password.`} secret={link.url} /> : ''}
      <Refused state={form} shown={['email', 'role']} />
      <div class="table-wrap">
        <table class="stacked">
          <thead>
            <tr>
              <th scope="col">Person</th>
              <th scope="col">Role</th>
              <th scope="col">Since</th>
              <th scope="col">
                <span class="muted">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <tr>
                <td class="key">
                  {esc(m.name)}
                  <div class="hint">{esc(m.email)}</div>
                </td>
                <td data-label="Role">
                  {m.role === 'owner' && c.role !== 'owner' ? (
                    ROLE_WORDS.owner
                  ) : (
                    <PostForm action={`${c.base}/settings/members/role`} token={c.csrf} class="row pair">
                      <input type="hidden" name="email" value={esc(m.email)} />
                      <label class="skip" for={`role-${m.personId}`}>
                        Role of {esc(m.name)}
                      </label>
                      <select id={`role-${m.personId}`} name="role">
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
                  )}
                </td>
                <td data-label="Since">
                  <When at={m.createdAt} />
                </td>
                <td>
                  {m.role === 'owner' && c.role !== 'owner' ? (
                    ''
                  ) : (
                    <PostForm action={`${c.base}/settings/members/remove`} token={c.csrf} class="inline">
                      <input type="hidden" name="email" value={esc(m.email)} />
                      <button type="submit" class="danger" aria-label={esc(`Remove ${m.name}`)}>
                        Remove
                      </button>
                    </PostForm>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <section class="card" aria-labelledby="add-member">
        <h2 id="add-member" class="flush">
          Add a member
        </h2>
        <PostForm action={`${c.base}/settings/members`} token={c.csrf}>
          <Field name="email" label="Email" type="email" state={form} required maxlength={255} />
          <Field name="name" label="Name (for someone new)" state={form} maxlength={255} />
          <Select name="role" label="Role" state={form} value="member" options={roles} />
          <div>
            <button type="submit">Add member</button>
          </div>
        </PostForm>
      </section>
    </SettingsLayout>
  )
}

export function membersSettings(kit: AppKit): void {
  const render = (c: InBusiness, form: FormState) => <MembersPage c={c} form={form} />
  kit.page('/settings/members', 'settings', render)
  kit.action(
    '/settings/members',
    'manage',
    async (c, d) => {
      const email = d.get('email')?.trim() ?? ''
      const added = await kit.operation<{ link_path: string | null }>(c, 'members_add', { body: { email, role: d.get('role') ?? '', name: d.get('name')?.trim() || undefined } })
      const link = added.link_path ? { email, url: kit.publicBase + added.link_path } : undefined
      return link ? <MembersPage c={c} form={EMPTY_FORM} link={link} /> : kit.done(c, '/settings/members', 'member_saved')
    },
    render,
  )
  kit.action(
    '/settings/members/role',
    'manage',
    async (c, d) => {
      await kit.operation(c, 'members_set_role', { body: { email: d.get('email') ?? '', role: d.get('role') ?? '' } })
      return kit.done(c, '/settings/members', 'member_saved')
    },
    render,
  )
  kit.action(
    '/settings/members/remove',
    'manage',
    async (c, d) => {
      await kit.operation(c, 'members_remove', { body: { email: d.get('email') ?? '' } })
      return kit.done(c, '/settings/members', 'member_removed')
    },
    render,
  )
}
