// Settings → Connected apps: the apps people connected to this Business (app, Role, who, when, last use); disconnect.
// Connecting happens on the OAuth consent page.
import { connectedAppsOf } from '../../../../modules/oauth'
import type { FormState, InBusiness } from '../../context'
import type { AppKit } from '../../kit'
import { Notice, Refused, When, esc } from '../../ui'
import { ButtonForm } from '../../settings-parts'
import { RecordsTable } from '../../list'
import { SettingsLayout, settingsPage } from './index'

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
        <RecordsTable
          rows={apps}
          columns={[
            { head: 'App', key: true, cell: (a) => esc(a.app.name) },
            { head: 'Role', cell: (a) => esc(a.role) },
            { head: 'Connected by', cell: (a) => esc(a.connected_by.name) },
            { head: 'Connected', cell: (a) => <When at={a.connected_at} /> },
            { head: 'Last used', cell: (a) => <When at={a.last_used_at} /> },
            {
              head: 'Disconnect',
              actions: true,
              headShown: true,
              cell: (a) => (
                <ButtonForm
                  action={`${c.base}/settings/connected-apps/${a.id}/disconnect`}
                  token={c.csrf}
                  kind="danger"
                  label="Disconnect"
                />
              ),
            },
          ]}
        />
      )}
    </SettingsLayout>
  )
}

export function connectedAppsSettings(kit: AppKit): void {
  const page = settingsPage(kit, '/settings/connected-apps', (c, form) => <ConnectedAppsPage c={c} form={form} />)
  page.change('/:id/disconnect', 'connected_apps_delete', 'saved', (_, c) => ({ path: { id: c.params.id } }))
}
