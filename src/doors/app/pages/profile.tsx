// Profile (extensions §9): the person's name and password. A new password ends every session; this browser gets a
// fresh one.
import { changePassword, renamePerson } from '../../../modules/people'
import { EMPTY_FORM, type FormState, type Signed } from '../context'
import { redirect } from '../http'
import type { AppKit } from '../kit'
import { Layout } from '../layout'
import { Field, Notice, PostForm, Refused, esc } from '../ui'
import { ProfileTabs } from './apps'
import { NewPasswordField } from './sign-in'

function ProfilePage({ c, form, which }: { c: Signed; form: FormState; which?: 'name' | 'password' }): JSX.Element {
  const nameForm = which === 'name' ? form : EMPTY_FORM
  const passwordForm = which === 'password' ? form : EMPTY_FORM
  return (
    <Layout c={c} title="Profile" section="profile">
      <h1>Profile</h1>
      <ProfileTabs at="profile" />
      <p class="lead">Signed in as {esc(c.person.email)}.</p>
      <Notice text={c.notice} />
      <section class="card" aria-labelledby="name-h">
        <h2 id="name-h">Name</h2>
        <Refused state={nameForm} shown={['name']} />
        <PostForm action="/app/profile/name" token={c.csrf}>
          <Field
            name="name"
            label="Your name"
            state={nameForm}
            value={c.person.name}
            required
            maxlength={255}
            autocomplete="name"
          />
          <div>
            <button type="submit">Save name</button>
          </div>
        </PostForm>
      </section>
      <section class="card" aria-labelledby="password-h">
        <h2 id="password-h">Password</h2>
        <p class="hint">Changing it signs you out everywhere else.</p>
        <Refused state={passwordForm} shown={['current_password', 'new_password']} />
        <PostForm action="/app/profile/password" token={c.csrf}>
          <input type="text" name="username" value={esc(c.person.email)} autocomplete="username" hidden />
          <Field
            name="current_password"
            label="Current password"
            type="password"
            state={passwordForm}
            required
            autocomplete="current-password"
          />
          <NewPasswordField name="new_password" label="New password" state={passwordForm} />
          <div>
            <button type="submit">Change password</button>
          </div>
        </PostForm>
      </section>
    </Layout>
  )
}

export function profileRoutes(kit: AppKit): void {
  kit.personPage('/app/profile', (c, form) => <ProfilePage c={c} form={form} />)
  kit.personAction(
    '/app/profile/name',
    async (c, data) => {
      await renamePerson(kit.deps, c.person.id, data.get('name') ?? '')
      return redirect('/app/profile?done=saved')
    },
    (c, form) => <ProfilePage c={c} form={form} which="name" />,
  )
  kit.personAction(
    '/app/profile/password',
    async (c, data) => {
      const token = await changePassword(
        kit.deps,
        c.person,
        data.get('current_password') ?? '',
        data.get('new_password') ?? '',
      )
      c.cookies.push(kit.sessionCookie(token))
      return redirect('/app/profile?done=password_changed')
    },
    (c, form) => <ProfilePage c={c} form={form} which="password" />,
  )
}
