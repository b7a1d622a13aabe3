// Settings → Connected apps: the apps people connected to this Business (app, Role, who, when, last use); disconnect.
// Connecting happens on the OAuth consent page.
import { connectedAppsOf } from '../../../../modules/oauth'
import type { FormState, InBusiness } from '../../context'
import type { AppKit } from '../../kit'
import { Notice, PostForm, Refused, When, esc } from '../../ui'
import { SettingsLayout } from './index'

async function ConnectedAppsPage({ c, form }: { c: InBusiness; form: FormState }): Promise<string> {
  const apps = await connectedAppsOf(c.deps.db, c.business.id, 0, 100)
  return (
    <SettingsLayout c={c} title="Connected apps" path="/connected-apps">
      <h1>Connected apps</h1>
      <p class="lead">Apps a member connected to this Business. Each acts with the Role chosen when connecting.</p>
      <Notice text={c.notice} />
      <Refused state={form} />
      {apps.length === 0 ? (
        <p class="muted">No app is connected.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">App</th>
                <th scope="col">Role</th>
                <th scope="col">Connected by</th>
                <th scope="col">Connected</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span class="muted">Disconnect</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {apps.map((a) => (
                <tr>
                  <td>{esc(a.app.name)}</td>
                  <td>{esc(a.role)}</td>
                  <td>{esc(a.connected_by.name)}</td>
                  <td>
                    <When at={a.connected_at} />
                  </td>
                  <td>
                    <When at={a.last_used_at} />
                  </td>
                  <td>
                    <PostForm
                      action={`${c.base}/settings/connected-apps/${a.id}/disconnect`}
                      token={c.csrf}
                      class="inline"
                    >
                      <button type="submit" class="danger">
                        Disconnect
                      </button>
                    </PostForm>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </SettingsLayout>
  )
}

export function connectedAppsSettings(kit: AppKit): void {
  const render = (c: InBusiness, form: FormState) => <ConnectedAppsPage c={c} form={form} />
  kit.page('/settings/connected-apps', 'settings', render)
  kit.action(
    '/settings/connected-apps/:id/disconnect',
    'manage',
    async (c) => {
      await kit.operation(c, 'connected_apps_delete', { path: { id: c.params.id } })
      return kit.done(c, '/settings/connected-apps', 'saved')
    },
    render,
  )
}
